// Control-flow graph queries and the dominator tree of a function.
#pragma once

#include "kaji/ir/IR.h"

#include <unordered_map>
#include <vector>

namespace kaji::ir {

// Successor blocks of `block` (empty if it has no terminator).
std::vector<Block *> successorBlocks(const Block &block);
// The blocks reachable from the entry in reverse post-order of a depth-first search that takes
// each terminator's successors in order: every block before its successors, loops aside. The
// order the dominator tree numbers blocks in, and the LLVM lowering emits them in.
std::vector<Block *> reversePostOrder(const Function &function);

// Every block's predecessors, once per edge (a cond_br to one block twice counts twice).
std::unordered_map<const Block *, std::vector<Block *>> predecessorMap(const Function &function);

class DominatorTree {
public:
  explicit DominatorTree(const Function &function);

  bool isReachable(const Block *block) const { return index_.count(block) != 0; }
  // True if every path from the entry to `b` goes through `a`. Unreachable blocks are
  // dominated by every block, as in LLVM, so that dead code never fails verification.
  bool dominates(const Block *a, const Block *b) const;
  // Reachable blocks, each after its immediate dominator (reverse post-order).
  const std::vector<Block *> &reversePostOrder() const { return rpo_; }
  const std::vector<Block *> &children(const Block *block) const;

private:
  void numberTree();

  std::vector<Block *> rpo_;
  std::unordered_map<const Block *, size_t> index_; // position in rpo_
  std::vector<size_t> idom_;                        // by rpo_ position
  std::vector<std::vector<Block *>> children_;
  std::vector<size_t> entered_, left_; // depth-first numbering of the tree, by rpo_ position
};

} // namespace kaji::ir
