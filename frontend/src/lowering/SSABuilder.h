// SSA construction after Braun et al., "Simple and Efficient Construction of Static
// Single Assignment Form" (CC 2013): variables map to values per block, blocks are
// sealed once all their predecessors are known, and phis are block arguments whose
// incoming values are written into the predecessors' branches at the end (finish()).
// Trivial phis are left for simplify-cfg.
#pragma once

#include "kaji/ir/IR.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace kaji::frontend {

class SSABuilder {
public:
  explicit SSABuilder(ir::Function &function);

  // Registers the edges of a terminator just appended: its successors gain predecessors.
  void addEdges(ir::Operation *terminator);
  // Declares that `block` will get no further predecessors.
  void seal(ir::Block *block);
  size_t predecessorCount(const ir::Block *block) const;

  void write(const std::string &variable, ir::Block *block, ir::Value *value);
  // The variable's value at the end of `block`. Where it has no definition on the paths
  // read, the result is a zero of `type` for which isUndefined() is true.
  ir::Value *read(const std::string &variable, ir::Type type, ir::Block *block);
  bool isUndefined(const ir::Value *value) const { return undefined_.count(value) != 0; }

  // A block argument whose incoming value the caller gives per predecessor.
  ir::Value *addArgument(ir::Block *block, ir::Type type);
  void setIncoming(ir::Value *argument, ir::Block *predecessor, ir::Value *value);

  // A block with no predecessors that is lowered only for the types of its values reads
  // variables as `origin` does; discard() drops it, and the blocks made after it, afterwards.
  void readAs(ir::Block *block, ir::Block *origin);
  bool readsAsAnother(const ir::Block *block) const;
  // Forgets everything about `block`, which is being removed with all its operations.
  void discard(const ir::Block *block);

  // Writes the incoming values of every block argument into the branches and removes the
  // empty blocks nothing branches to. Call once, after the last block is sealed.
  void finish();

private:
  struct Edge {
    ir::Operation *terminator;
    unsigned successor;
    ir::Block *from;
  };
  struct BlockState {
    std::vector<Edge> predecessors;
    bool sealed = false;
    ir::Block *readsAs = nullptr;
    std::vector<std::pair<std::string, ir::Value *>> incompletePhis;
    std::vector<std::vector<ir::Value *>> incoming; // [argument][predecessor]
  };

  // A run is a straight line of blocks b0 -> b1 -> ..., each bi (i > 0) sealed with bi-1 as
  // its only predecessor when it was placed: a variable's value in bi is its last definition
  // in b0..bi, found by depth in one lookup. Braun's read walks such a line block by block,
  // which made reading many variables after a loop over a tuple, unrolled into tens of
  // thousands of blocks, quadratic (and as deep in recursion as the line is long).
  struct Place {
    unsigned run;
    unsigned depth;
  };
  struct Run {
    ir::Block *head;
    const ir::Block *tail; // the deepest block, which a successor may continue the run from
  };
  // Where `block` is, placing it (and the unplaced blocks it continues) first.
  Place place(ir::Block *block);
  // The predecessor of a sealed block with exactly one, else null.
  ir::Block *onlyPredecessor(const ir::Block *block) const;

  ir::Value *readRecursive(const std::string &variable, ir::Type type, ir::Block *block);
  void addPhiOperands(const std::string &variable, ir::Value *phi);
  ir::Value *undefinedValue(ir::Type type);
  ir::Value *undefinedArray(ir::Type type);

  ir::Function &function_;
  std::unordered_map<const ir::Block *, BlockState> blocks_;
  std::unordered_map<const ir::Block *, Place> places_;
  std::vector<Run> runs_;
  // variable -> run -> depth -> value.
  std::map<std::string, std::unordered_map<unsigned, std::map<unsigned, ir::Value *>>> definitions_;
  std::set<const ir::Value *> undefined_;
  std::map<std::string, ir::Value *> undefinedConstants_; // by type spelling
};

} // namespace kaji::frontend
