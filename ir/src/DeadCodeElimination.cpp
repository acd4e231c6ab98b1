#include "PassUtils.h"
#include "kaji/ir/Passes.h"

namespace kaji::ir {

namespace {

bool removeUnusedOperations(Function &function) {
  auto uses = detail::countUses(function);
  bool changed = false;
  // Walking backwards frees the operands of a removed op before they are visited.
  for (auto blockIt = function.blocks().rbegin(); blockIt != function.blocks().rend(); ++blockIt) {
    auto &ops = (*blockIt)->operations();
    bool removed = false;
    for (size_t i = ops.size(); i-- > 0;) {
      Operation &op = *ops[i];
      if (hasSideEffects(op.opcode()) || !op.result() || uses[op.result()] != 0)
        continue;
      for (const Value *operand : op.operands())
        --uses[operand];
      ops[i].reset();
      removed = true;
    }
    if (removed)
      std::erase(ops, nullptr);
    changed |= removed;
  }
  return changed;
}

} // namespace

bool eliminateDeadCode(Module &module) {
  bool changed = false;
  for (auto &function : module.functions()) {
    changed |= detail::removeUnreachableBlocks(*function);
    // A value used only in an earlier block (a loop body) needs another sweep.
    while (removeUnusedOperations(*function))
      changed = true;
  }
  return changed;
}

} // namespace kaji::ir
