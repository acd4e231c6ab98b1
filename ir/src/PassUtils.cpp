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

} // namespace kaji::ir::detail
