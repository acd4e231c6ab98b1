#include "kaji/ir/Dominance.h"

#include <unordered_set>

namespace kaji::ir {

std::vector<Block *> successorBlocks(const Block &block) {
  std::vector<Block *> result;
  if (const Operation *term = block.terminator())
    for (const Successor &succ : term->successors())
      result.push_back(succ.block);
  return result;
}

std::unordered_map<const Block *, std::vector<Block *>> predecessorMap(const Function &function) {
  std::unordered_map<const Block *, std::vector<Block *>> preds;
  for (const auto &block : function.blocks())
    for (Block *succ : successorBlocks(*block))
      preds[succ].push_back(block.get());
  return preds;
}

DominatorTree::DominatorTree(const Function &function) {
  // Iterative post-order DFS from the entry.
  std::vector<Block *> postOrder;
  std::unordered_set<const Block *> visited;
  std::vector<std::pair<Block *, size_t>> stack;
  Block *entry = function.entry();
  stack.emplace_back(entry, 0);
  visited.insert(entry);
  while (!stack.empty()) {
    auto &[block, next] = stack.back();
    std::vector<Block *> succs = successorBlocks(*block);
    if (next < succs.size()) {
      Block *succ = succs[next++];
      if (succ && visited.insert(succ).second)
        stack.emplace_back(succ, 0);
      continue;
    }
    postOrder.push_back(block);
    stack.pop_back();
  }
  rpo_.assign(postOrder.rbegin(), postOrder.rend());
  for (size_t i = 0; i < rpo_.size(); ++i)
    index_[rpo_[i]] = i;

  // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
  auto preds = predecessorMap(function);
  constexpr size_t undefined = SIZE_MAX;
  idom_.assign(rpo_.size(), undefined);
  idom_[0] = 0;
  auto intersect = [&](size_t a, size_t b) {
    while (a != b) {
      while (a > b)
        a = idom_[a];
      while (b > a)
        b = idom_[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo_.size(); ++i) {
      size_t newIdom = undefined;
      for (Block *pred : preds[rpo_[i]]) {
        auto it = index_.find(pred);
        if (it == index_.end() || idom_[it->second] == undefined)
          continue;
        newIdom = newIdom == undefined ? it->second : intersect(it->second, newIdom);
      }
      if (newIdom != idom_[i]) {
        idom_[i] = newIdom;
        changed = true;
      }
    }
  }
  children_.resize(rpo_.size());
  for (size_t i = 1; i < rpo_.size(); ++i)
    children_[idom_[i]].push_back(rpo_[i]);
}

bool DominatorTree::dominates(const Block *a, const Block *b) const {
  auto bi = index_.find(b);
  if (bi == index_.end())
    return true;
  auto ai = index_.find(a);
  if (ai == index_.end())
    return false;
  size_t target = ai->second;
  size_t current = bi->second;
  while (current > target)
    current = idom_[current];
  return current == target;
}

const std::vector<Block *> &DominatorTree::children(const Block *block) const {
  static const std::vector<Block *> none;
  auto it = index_.find(block);
  return it == index_.end() ? none : children_[it->second];
}

} // namespace kaji::ir
