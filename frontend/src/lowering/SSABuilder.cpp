#include "SSABuilder.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace kaji::frontend {

SSABuilder::SSABuilder(ir::Function &function) : function_(function) {
  blocks_[function.entry()].sealed = true;
}

void SSABuilder::addEdges(ir::Operation *terminator) {
  auto &successors = terminator->successors();
  for (unsigned i = 0; i < successors.size(); ++i)
    blocks_[successors[i].block].predecessors.push_back({terminator, i, terminator->parent()});
}

size_t SSABuilder::predecessorCount(const ir::Block *block) const {
  auto it = blocks_.find(block);
  return it == blocks_.end() ? 0 : it->second.predecessors.size();
}

void SSABuilder::seal(ir::Block *block) {
  BlockState &state = blocks_[block];
  // Filling one phi may read through this block again and add further incomplete phis.
  for (size_t i = 0; i < state.incompletePhis.size(); ++i) {
    auto [variable, phi] = blocks_[block].incompletePhis[i];
    addPhiOperands(variable, phi);
  }
  blocks_[block].incompletePhis.clear();
  blocks_[block].sealed = true;
}

ir::Block *SSABuilder::onlyPredecessor(const ir::Block *block) const {
  auto it = blocks_.find(block);
  if (it == blocks_.end() || !it->second.sealed || it->second.predecessors.size() != 1)
    return nullptr;
  return it->second.predecessors.front().from;
}

SSABuilder::Place SSABuilder::place(ir::Block *block) {
  if (auto known = places_.find(block); known != places_.end())
    return known->second;
  // The unplaced blocks of the straight line ending in `block`, innermost first; a loop
  // in unreachable code ends it too.
  std::vector<ir::Block *> line{block};
  std::set<const ir::Block *> onLine{block};
  while (ir::Block *above = onlyPredecessor(line.back())) {
    if (places_.count(above) || !onLine.insert(above).second)
      break;
    line.push_back(above);
  }
  for (auto it = line.rbegin(); it != line.rend(); ++it) {
    ir::Block *current = *it;
    const ir::Block *above = onlyPredecessor(current);
    auto abovePlace = above ? places_.find(above) : places_.end();
    if (abovePlace != places_.end() && runs_[abovePlace->second.run].tail == above) {
      Place next{abovePlace->second.run, abovePlace->second.depth + 1};
      runs_[next.run].tail = current;
      places_[current] = next;
    } else {
      runs_.push_back({current, current});
      places_[current] = {unsigned(runs_.size() - 1), 0};
    }
  }
  return places_.at(block);
}

void SSABuilder::write(const std::string &variable, ir::Block *block, ir::Value *value) {
  Place at = place(block);
  definitions_[variable][at.run][at.depth] = value;
}

ir::Value *SSABuilder::read(const std::string &variable, ir::Type type, ir::Block *block) {
  Place at = place(block);
  const auto &inRun = definitions_[variable][at.run];
  // The last definition at or above `block` in its run; before the run, its head's reads.
  if (auto after = inRun.upper_bound(at.depth); after != inRun.begin())
    return std::prev(after)->second;
  return readRecursive(variable, type, runs_[at.run].head);
}

ir::Value *SSABuilder::readRecursive(const std::string &variable, ir::Type type, ir::Block *block) {
  BlockState &state = blocks_[block];
  ir::Value *value;
  if (!state.sealed) {
    value = addArgument(block, type);
    blocks_[block].incompletePhis.emplace_back(variable, value);
  } else if (state.predecessors.empty()) {
    value = state.readsAs ? read(variable, type, state.readsAs) : undefinedValue(type);
  } else if (state.predecessors.size() == 1) {
    value = read(variable, type, state.predecessors.front().from);
  } else {
    value = addArgument(block, type);
    write(variable, block, value); // breaks cycles through loops
    addPhiOperands(variable, value);
  }
  write(variable, block, value);
  return value;
}

void SSABuilder::addPhiOperands(const std::string &variable, ir::Value *phi) {
  ir::Block *block = phi->ownerBlock();
  size_t count = blocks_[block].predecessors.size();
  std::vector<ir::Value *> operands(count);
  bool allUndefined = true;
  for (size_t i = 0; i < count; ++i) {
    operands[i] = read(variable, phi->type(), blocks_[block].predecessors[i].from);
    allUndefined = allUndefined && (operands[i] == phi || isUndefined(operands[i]));
  }
  blocks_[block].incoming[phi->argIndex()] = std::move(operands);
  if (allUndefined)
    undefined_.insert(phi);
}

ir::Value *SSABuilder::addArgument(ir::Block *block, ir::Type type) {
  ir::Value *argument = block->addArgument(type);
  blocks_[block].incoming.resize(block->arguments().size());
  return argument;
}

void SSABuilder::setIncoming(ir::Value *argument, ir::Block *predecessor, ir::Value *value) {
  BlockState &state = blocks_[argument->ownerBlock()];
  auto &incoming = state.incoming[argument->argIndex()];
  incoming.resize(state.predecessors.size());
  for (size_t i = 0; i < state.predecessors.size(); ++i)
    if (state.predecessors[i].from == predecessor)
      incoming[i] = value;
}

ir::Value *SSABuilder::undefinedValue(ir::Type type) {
  if (auto known = undefinedConstants_.find(type.str()); known != undefinedConstants_.end())
    return known->second;
  ir::Block &entry = *function_.entry();
  size_t position = 0;
  std::unique_ptr<ir::Operation> op;
  if (type.isVector()) {
    // The vector of undefined lanes, placed after its lane's constant.
    ir::Value *lane = undefinedValue(ir::Type::scalar(type.scalarKind()));
    while (entry.operations()[position]->result() != lane)
      ++position;
    ++position;
    op = std::make_unique<ir::Operation>(ir::Opcode::MakeVector, type,
                                         std::vector<ir::Value *>(type.lanes(), lane), ir::Attr(),
                                         function_.location());
  } else if (type.isArray()) {
    return undefinedArray(type);
  } else {
    ir::Attr zero = type.isFloat() ? ir::Attr(0.0) : ir::Attr(int64_t(0));
    op = std::make_unique<ir::Operation>(ir::Opcode::Constant, type, std::vector<ir::Value *>{},
                                         zero, function_.location());
  }
  ir::Value *constant = entry.insert(position, std::move(op))->result();
  undefinedConstants_[type.str()] = constant;
  undefined_.insert(constant);
  return constant;
}

ir::Value *SSABuilder::undefinedArray(ir::Type type) {
  // An array no path defined: empty where its memory space allows one (global, constant),
  // else a view with no elements of a one-element allocation. Placed after the zero it uses.
  ir::Value *zero = undefinedValue(ir::Type::scalar(ir::ScalarKind::Int64));
  ir::Block &entry = *function_.entry();
  size_t position = 0;
  while (entry.operations()[position]->result() != zero)
    ++position;
  auto place = [&](ir::Opcode opcode, ir::Type result, std::vector<ir::Value *> operands,
                   ir::Attr attr) {
    auto op = std::make_unique<ir::Operation>(opcode, result, std::move(operands), std::move(attr),
                                              function_.location());
    return entry.insert(++position, std::move(op))->result();
  };
  unsigned ndim = type.ndim();
  std::vector<ir::Value *> placement(1 + 2 * ndim, zero);
  ir::Value *array;
  if (type.memorySpace() == ir::MemorySpace::Global) {
    array = place(ir::Opcode::ArrayAt, type, placement, ir::Attr());
  } else {
    ir::Type dense =
        type.isRecordArray()
            ? ir::Type::array(type.record(), ndim, ir::Layout::C, type.memorySpace())
            : ir::Type::arrayOf(type.elementType(), ndim, ir::Layout::C, type.memorySpace());
    ir::Value *base;
    switch (type.memorySpace()) {
    case ir::MemorySpace::Constant:
      base = place(ir::Opcode::ConstArray, dense, {},
                   ir::ConstantData{std::vector<int64_t>(ndim, 0), ""});
      break;
    case ir::MemorySpace::Shared:
      base = place(ir::Opcode::SharedArray, dense, {},
                   ir::ArrayAllocation(std::vector<int64_t>(ndim, 1)));
      break;
    default:
      base = place(ir::Opcode::LocalArray, dense, {},
                   ir::ArrayAllocation(std::vector<int64_t>(ndim, 1)));
      break;
    }
    placement.insert(placement.begin(), base); // then the offset, extents and strides
    array = place(ir::Opcode::ArrayView, type, placement, ir::Attr());
  }
  undefinedConstants_[type.str()] = array;
  undefined_.insert(array);
  return array;
}

void SSABuilder::readAs(ir::Block *block, ir::Block *origin) {
  seal(block);
  blocks_[block].readsAs = origin;
}

bool SSABuilder::readsAsAnother(const ir::Block *block) const {
  auto it = blocks_.find(block);
  return it != blocks_.end() && it->second.readsAs;
}

void SSABuilder::discard(const ir::Block *block) {
  blocks_.erase(block);
  auto placed = places_.find(block);
  if (placed == places_.end())
    return;
  Place at = placed->second;
  for (auto &[variable, runs] : definitions_)
    if (auto run = runs.find(at.run); run != runs.end())
      run->second.erase(at.depth);
  // No block continues the run from here: a later block at this address starts its own.
  if (runs_[at.run].tail == block)
    runs_[at.run].tail = nullptr;
  places_.erase(placed);
}

void SSABuilder::finish() {
  for (auto &[block, state] : blocks_) {
    for (size_t p = 0; p < state.predecessors.size(); ++p) {
      std::vector<ir::Value *> args;
      for (auto &incoming : state.incoming) {
        if (p >= incoming.size() || !incoming[p])
          throw std::logic_error("SSA construction left a block argument without a value");
        args.push_back(incoming[p]);
      }
      const Edge &edge = state.predecessors[p];
      edge.terminator->successors()[edge.successor].args = std::move(args);
    }
  }
  auto &blocks = function_.blocks();
  blocks.erase(std::remove_if(blocks.begin() + 1, blocks.end(),
                              [&](const std::unique_ptr<ir::Block> &block) {
                                return block->operations().empty() &&
                                       predecessorCount(block.get()) == 0;
                              }),
               blocks.end());
}

} // namespace kaji::frontend
