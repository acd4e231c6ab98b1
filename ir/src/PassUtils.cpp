#include "PassUtils.h"

#include "kaji/ir/Dominance.h"

namespace kaji::ir::detail {

std::unordered_map<const Value *, unsigned> countUses(const Function &function) {
  std::unordered_map<const Value *, unsigned> uses;
  for (const auto &block : function.blocks()) {
    for (const auto &op : block->operations()) {
      for (const Value *operand : op->operands())
        ++uses[operand];
      for (const Successor &succ : op->successors())
        for (const Value *arg : succ.args)
          ++uses[arg];
    }
  }
  return uses;
}

bool removeUnreachableBlocks(Function &function) {
  DominatorTree dominance(function);
  return std::erase_if(function.blocks(), [&](const std::unique_ptr<Block> &block) {
           return !dominance.isReachable(block.get());
         }) != 0;
}

Value *ValueForwarding::resolve(Value *v) {
  Value *end = v;
  for (auto it = forwarded_.find(end); it != forwarded_.end(); it = forwarded_.find(end))
    end = it->second;
  // Pointing the whole chain at its end keeps later look-ups short.
  while (v != end) {
    Value *&next = forwarded_[v];
    v = next;
    next = end;
  }
  return end;
}

void ValueForwarding::rewrite(Function &function) {
  if (forwarded_.empty())
    return;
  for (auto &block : function.blocks()) {
    for (auto &op : block->operations()) {
      for (Value *&operand : op->operands())
        operand = resolve(operand);
      for (Successor &succ : op->successors())
        for (Value *&arg : succ.args)
          arg = resolve(arg);
    }
  }
}

} // namespace kaji::ir::detail
