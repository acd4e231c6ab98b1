// Helpers shared by the passes in this directory (not part of the public API).
#pragma once

#include "kaji/ir/Dominance.h"
#include "kaji/ir/IR.h"

#include <unordered_map>
#include <vector>

namespace kaji::ir::detail {

// Number of operand and successor-argument references to each value.
std::unordered_map<const Value *, unsigned> countUses(const Function &function);
// Deletes the blocks not reachable from the entry; true if there were any.
bool removeUnreachableBlocks(Function &function);

// Walks the dominator tree from `root` depth first, without recursion (a function may nest
// thousands of blocks deep): enter(block, parent) before the block's children (parent null for
// the root), leave(block) after them.
template <class Enter, class Leave>
void walkDominatorTree(const DominatorTree &tree, Block *root, Enter enter, Leave leave) {
  struct Frame {
    Block *block;
    size_t child;
  };
  std::vector<Frame> stack{{root, 0}};
  enter(root, static_cast<Block *>(nullptr));
  while (!stack.empty()) {
    Frame &frame = stack.back();
    const std::vector<Block *> &children = tree.children(frame.block);
    if (frame.child < children.size()) {
      Block *parent = frame.block;
      Block *child = children[frame.child++];
      stack.push_back({child, 0});
      enter(child, parent);
      continue;
    }
    leave(frame.block);
    stack.pop_back();
  }
}

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
