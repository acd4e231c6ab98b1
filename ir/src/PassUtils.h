// Helpers shared by the passes in this directory (not part of the public API).
#pragma once

#include "kaji/ir/IR.h"

#include <unordered_map>

namespace kaji::ir::detail {

// Number of operand and successor-argument references to each value.
std::unordered_map<const Value *, unsigned> countUses(const Function &function);
// Deletes the blocks not reachable from the entry; true if there were any.
bool removeUnreachableBlocks(Function &function);

// Replacements of values collected during a walk and applied to the whole function in one
// sweep at the end: a replaceAllUsesWith per value would make a pass quadratic.
class ValueForwarding {
public:
  // From now on `from` stands for `to` (and for what `to` is later forwarded to).
  void forward(Value *from, Value *to) { forwarded_[from] = to; }
  // The value `v` stands for after every forwarding so far.
  Value *resolve(Value *v);
  bool empty() const { return forwarded_.empty(); }
  // Rewrites every operand and successor argument of `function` to its resolved value.
  void rewrite(Function &function);

private:
  std::unordered_map<Value *, Value *> forwarded_;
};

} // namespace kaji::ir::detail
