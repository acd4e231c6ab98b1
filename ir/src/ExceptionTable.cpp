#include "kaji/ir/ExceptionTable.h"

namespace kaji::ir {

bool checksIndex(const Operation &op) {
  unsigned arrayOperand = 0;
  switch (op.opcode()) {
  case Opcode::ArrayIndex:
  case Opcode::FragmentGet:
  case Opcode::FragmentSet:
  case Opcode::AsyncCopy:
  case Opcode::WarpgroupMma:
    return true;
  case Opcode::Load:
  case Opcode::Atomic:
  case Opcode::AtomicCAS:
    break;
  case Opcode::Store:
    arrayOperand = 1;
    break;
  default:
    return false;
  }
  return op.numOperands() > arrayOperand && op.operand(arrayOperand)->type().isArray() &&
         op.operand(arrayOperand)->type().ndim() > 0;
}

std::vector<RaiseSite> exceptionTable(const Module &module, bool boundsChecked) {
  std::vector<RaiseSite> table;
  for (const auto &function : module.functions())
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations()) {
        if (const auto *exception = std::get_if<std::string>(&op->attr());
            exception && op->opcode() == Opcode::Raise)
          table.push_back({op.get(), raiseSiteText(op->location(), function->name()), *exception});
        else if (boundsChecked && checksIndex(*op))
          table.push_back(
              {op.get(), raiseSiteText(op->location(), function->name()), "IndexError", true});
        if (boundsChecked && checksAlignment(*op))
          table.push_back({op.get(), raiseSiteText(op->location(), function->name()),
                           misalignmentException(*op)});
      }
  return table;
}

uint32_t ExceptionNumbers::of(const Operation &op) {
  if (numbers_.empty()) {
    std::vector<RaiseSite> table = exceptionTable(module_, boundsChecked_);
    for (size_t i = 0; i < table.size(); ++i)
      numbers_.emplace(table[i].op, uint32_t(i + 1)); // an op's first entry
  }
  return numbers_.at(&op);
}

bool checksAlignment(const Operation &op) {
  return op.opcode() == Opcode::AsyncCopy || op.opcode() == Opcode::WarpgroupMma;
}

std::string misalignmentException(const Operation &op) {
  if (op.opcode() == Opcode::WarpgroupMma)
    return "ValueError: cuda.wgmma.mma_async reads matrices whose rows are 128 bytes apart and "
           "whose elements are contiguous, in groups of 8 rows that start on 1024-byte "
           "boundaries";
  std::string bytes = std::to_string(op.attrAs<int64_t>());
  return "ValueError: an asynchronous copy of " + bytes +
         " bytes needs its source and destination aligned to " + bytes + " bytes";
}

std::string raiseSiteText(const Location &location, const std::string &function) {
  return location.fileName() + ":" + std::to_string(location.line) + ":" +
         std::to_string(location.col) + ": in '" + function + "'";
}

} // namespace kaji::ir
