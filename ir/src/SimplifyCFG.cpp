#include "PassUtils.h"
#include "kaji/ir/Constants.h"
#include "kaji/ir/Dominance.h"
#include "kaji/ir/Passes.h"

#include <unordered_set>

namespace kaji::ir {

namespace {

void replaceWithBr(Operation &condBr, size_t taken) {
  auto br = std::make_unique<Operation>(Opcode::Br, Type(), std::vector<Value *>{}, Attr{},
                                        condBr.location());
  br->successors().push_back(std::move(condBr.successors()[taken]));
  Block *block = condBr.parent();
  block->replace(block->operations().size() - 1, std::move(br));
}

bool sameSuccessor(const Successor &a, const Successor &b) {
  return a.block == b.block && a.args == b.args;
}

// cond_br on a constant, or to the same place either way, becomes br.
bool foldBranches(Function &function) {
  bool changed = false;
  for (auto &block : function.blocks()) {
    Operation *term = block->terminator();
    if (!term || term->opcode() != Opcode::CondBr)
      continue;
    if (auto cond = intConstant(term->operand(0))) {
      replaceWithBr(*term, *cond ? 0 : 1);
      changed = true;
    } else if (sameSuccessor(term->successors()[0], term->successors()[1])) {
      replaceWithBr(*term, 0);
      changed = true;
    }
  }
  return changed;
}

// Every edge into each block, as the successor entry of its predecessor's terminator.
std::unordered_map<const Block *, std::vector<Successor *>> incomingEdges(Function &function) {
  std::unordered_map<const Block *, std::vector<Successor *>> edges;
  for (auto &pred : function.blocks())
    if (Operation *term = pred->terminator())
      for (Successor &succ : term->successors())
        edges[succ.block].push_back(&succ);
  return edges;
}

// The one value other than `arg` itself that every edge passes for it, if there is one.
Value *uniqueIncomingValue(const std::vector<Successor *> &edges, Value *arg,
                           detail::ValueForwarding &forwarding) {
  Value *unique = nullptr;
  for (const Successor *edge : edges) {
    Value *incoming = forwarding.resolve(edge->args[arg->argIndex()]);
    if (incoming == arg || incoming == unique)
      continue;
    if (unique)
      return nullptr;
    unique = incoming;
  }
  return unique;
}

bool simplifyBlockArguments(Function &function) {
  bool changed = false;
  auto uses = detail::countUses(function);
  auto edgesInto = incomingEdges(function);
  // Replaced arguments are forwarded rather than rewritten at once; every value read
  // from an edge is resolved first.
  detail::ValueForwarding forwarding;
  for (size_t b = 1; b < function.blocks().size(); ++b) {
    Block *block = function.blocks()[b].get();
    const std::vector<Successor *> &edges = edgesInto[block];
    for (unsigned i = unsigned(block->arguments().size()); i-- > 0;) {
      Value *arg = block->argument(i);
      unsigned selfUses = 0;
      for (const Successor *edge : edges)
        selfUses += forwarding.resolve(edge->args[i]) == arg;
      bool unused = uses[arg] == selfUses;
      Value *replacement = unused ? nullptr : uniqueIncomingValue(edges, arg, forwarding);
      if (!unused && !replacement)
        continue;
      for (Successor *edge : edges) {
        --uses[forwarding.resolve(edge->args[i])];
        edge->args.erase(edge->args.begin() + i);
      }
      if (replacement) {
        forwarding.forward(arg, replacement);
        uses[replacement] += uses[arg];
      }
      uses.erase(arg);
      block->eraseArgument(i);
      changed = true;
    }
  }
  forwarding.rewrite(function);
  return changed;
}

// A block whose only predecessor ends in `br` to it is appended to that predecessor.
bool mergeBlocks(Function &function) {
  auto preds = predecessorMap(function);
  detail::ValueForwarding forwarding;
  std::unordered_set<const Block *> merged;
  for (size_t b = 1; b < function.blocks().size(); ++b) {
    Block *block = function.blocks()[b].get();
    auto &blockPreds = preds[block];
    if (blockPreds.size() != 1 || blockPreds[0] == block)
      continue;
    Block *pred = blockPreds[0];
    Operation *term = pred->terminator();
    if (term->opcode() != Opcode::Br)
      continue;
    const std::vector<Value *> &args = term->successors()[0].args;
    for (unsigned i = 0; i < args.size(); ++i)
      forwarding.forward(block->argument(i), args[i]);
    pred->take(pred->operations().size() - 1);
    pred->appendOperationsOf(*block);
    // The merged block's successors now have `pred` as predecessor.
    for (Block *succ : successorBlocks(*pred))
      for (Block *&p : preds[succ])
        if (p == block)
          p = pred;
    preds.erase(block);
    merged.insert(block);
  }
  if (merged.empty())
    return false;
  forwarding.rewrite(function);
  // Erased last: the forwarded block arguments must outlive the rewrite.
  std::erase_if(function.blocks(),
                [&](const std::unique_ptr<Block> &block) { return merged.count(block.get()); });
  return true;
}

} // namespace

bool simplifyCFG(Module &module) {
  bool changed = false;
  for (auto &function : module.functions()) {
    while (true) {
      bool round = foldBranches(*function);
      round |= detail::removeUnreachableBlocks(*function);
      round |= simplifyBlockArguments(*function);
      round |= mergeBlocks(*function);
      if (!round)
        break;
      changed = true;
    }
  }
  return changed;
}

} // namespace kaji::ir
