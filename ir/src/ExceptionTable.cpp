#include "kaji/ir/ExceptionTable.h"

namespace kaji::ir {

std::vector<RaiseSite> exceptionTable(const Module &module) {
  std::vector<RaiseSite> table;
  for (const auto &function : module.functions())
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations())
        if (const auto *exception = std::get_if<std::string>(&op->attr());
            exception && op->opcode() == Opcode::Raise)
          table.push_back({op.get(), raiseSiteText(op->location(), function->name()), *exception});
  return table;
}

std::string raiseSiteText(const Location &location, const std::string &function) {
  return location.fileName() + ":" + std::to_string(location.line) + ":" +
         std::to_string(location.col) + ": in '" + function + "'";
}

} // namespace kaji::ir
