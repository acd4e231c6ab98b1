#include "kaji/ir/Dominance.h"

#include <algorithm>

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

namespace {

constexpr size_t kNone = SIZE_MAX;

// Iterative depth-first search from the entry, each terminator's successors in order:
// preorder numbers with their tree parents, and the post-order.
struct DepthFirstSearch {
  std::vector<Block *> preorder, postOrder;
  std::vector<size_t> parent; // by preorder number
  std::unordered_map<const Block *, size_t> number;
};

DepthFirstSearch searchDepthFirst(const Function &function) {
  DepthFirstSearch search;
  std::vector<std::pair<Block *, size_t>> stack;
  auto discover = [&](Block *block, size_t from) {
    search.number[block] = search.preorder.size();
    search.preorder.push_back(block);
    search.parent.push_back(from);
    stack.emplace_back(block, 0);
  };
  discover(function.entry(), 0);
  while (!stack.empty()) {
    auto [block, next] = stack.back();
    const Operation *term = block->terminator();
    if (term && next < term->successors().size()) {
      ++stack.back().second;
      Block *succ = term->successors()[next].block;
      if (succ && !search.number.count(succ))
        discover(succ, search.number.at(block));
      continue;
    }
    search.postOrder.push_back(block);
    stack.pop_back();
  }
  return search;
}

// Lengauer and Tarjan's "simple" dominator algorithm over depth-first preorder numbers:
// near-linear where the iterative Cooper-Harvey-Kennedy scheme walks idom chains once per
// predecessor (quadratic for a block reached from every link of a long chain, as the
// false edge of an `and` chain is).
class SemiDominators {
public:
  SemiDominators(const std::vector<size_t> &parent,
                 const std::vector<std::vector<size_t>> &predecessors)
      : semi_(parent.size()), label_(parent.size()), ancestor_(parent.size(), kNone),
        idom_(parent.size(), 0) {
    size_t n = parent.size();
    for (size_t v = 0; v < n; ++v)
      semi_[v] = label_[v] = v;
    std::vector<std::vector<size_t>> bucket(n);
    for (size_t w = n; w-- > 1;) {
      for (size_t v : predecessors[w])
        semi_[w] = std::min(semi_[w], semi_[eval(v)]);
      bucket[semi_[w]].push_back(w);
      ancestor_[w] = parent[w];
      for (size_t v : bucket[parent[w]]) {
        size_t u = eval(v);
        idom_[v] = semi_[u] < semi_[v] ? u : parent[w];
      }
      bucket[parent[w]].clear();
    }
    for (size_t w = 1; w < n; ++w)
      if (idom_[w] != semi_[w])
        idom_[w] = idom_[idom_[w]];
  }

  // Immediate dominator of each preorder number (the root's is itself).
  const std::vector<size_t> &idom() const { return idom_; }

private:
  size_t eval(size_t v) {
    if (ancestor_[v] == kNone)
      return v;
    compress(v);
    return label_[v];
  }

  // Path compression without recursion: the chain of linked ancestors can be as long as
  // the function.
  void compress(size_t v) {
    std::vector<size_t> path;
    for (size_t x = v; ancestor_[ancestor_[x]] != kNone; x = ancestor_[x])
      path.push_back(x);
    while (!path.empty()) {
      size_t x = path.back();
      path.pop_back();
      size_t a = ancestor_[x];
      if (semi_[label_[a]] < semi_[label_[x]])
        label_[x] = label_[a];
      ancestor_[x] = ancestor_[a];
    }
  }

  std::vector<size_t> semi_, label_, ancestor_, idom_;
};

} // namespace

std::vector<Block *> reversePostOrder(const Function &function) {
  std::vector<Block *> postOrder = searchDepthFirst(function).postOrder;
  return {postOrder.rbegin(), postOrder.rend()};
}

DominatorTree::DominatorTree(const Function &function) {
  auto [preorder, postOrder, parent, number] = searchDepthFirst(function);
  rpo_.assign(postOrder.rbegin(), postOrder.rend());
  for (size_t i = 0; i < rpo_.size(); ++i)
    index_[rpo_[i]] = i;

  std::vector<std::vector<size_t>> predecessors(preorder.size());
  for (const auto &[block, preds] : predecessorMap(function)) {
    auto to = number.find(block);
    if (to == number.end())
      continue;
    for (Block *pred : preds)
      if (auto from = number.find(pred); from != number.end())
        predecessors[to->second].push_back(from->second);
  }
  SemiDominators dominators(parent, predecessors);
  idom_.assign(rpo_.size(), 0);
  for (size_t w = 1; w < preorder.size(); ++w)
    idom_[index_.at(preorder[w])] = index_.at(preorder[dominators.idom()[w]]);
  children_.resize(rpo_.size());
  for (size_t i = 1; i < rpo_.size(); ++i)
    children_[idom_[i]].push_back(rpo_[i]);
  numberTree();
}

// Numbers the tree depth-first, so that `a` dominates `b` exactly when b's interval
// [entered, left] lies inside a's: a constant-time query even in deep trees.
void DominatorTree::numberTree() {
  if (rpo_.empty())
    return;
  entered_.assign(rpo_.size(), 0);
  left_.assign(rpo_.size(), 0);
  size_t clock = 0;
  std::vector<std::pair<size_t, size_t>> stack = {{0, 0}}; // (rpo position, next child)
  entered_[0] = clock++;
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    if (next < children_[node].size()) {
      size_t child = index_.at(children_[node][next++]);
      entered_[child] = clock++;
      stack.emplace_back(child, 0);
      continue;
    }
    left_[node] = clock++;
    stack.pop_back();
  }
}

bool DominatorTree::dominates(const Block *a, const Block *b) const {
  auto bi = index_.find(b);
  if (bi == index_.end())
    return true;
  auto ai = index_.find(a);
  if (ai == index_.end())
    return false;
  return entered_[ai->second] <= entered_[bi->second] && left_[bi->second] <= left_[ai->second];
}

const std::vector<Block *> &DominatorTree::children(const Block *block) const {
  static const std::vector<Block *> none;
  auto it = index_.find(block);
  return it == index_.end() ? none : children_[it->second];
}

} // namespace kaji::ir
