// ranges: integer comparisons that the ranges of their operands decide become constants.
//
// Python's negative indices make every index `i` of a kernel a `select (i < 0), i + n, i`
// (or an array_index), and Python's ints make it 64-bit. Where the index is a thread's grid
// position, or was tested against 0 by an enclosing `if`, the test is always false: LLVM's own
// range analysis proves that on the LLVM path, but the CUDA C++ of the NVRTC backend keeps the
// wraparound as a shift, an `and` and an add per index, and the CPU target pays it per thread.
// Deciding it on kaji IR serves every backend.
//
// Each integer value gets an interval, computed once where it is defined from the intervals of
// its operands there; an interval that would leave the value's type (the operation may wrap)
// is the whole type. The walk goes down the dominator tree, and in a block entered only
// through one edge of a `cond_br` on a comparison, the comparison's outcome narrows its
// operands' intervals for that block and the blocks it dominates. A block argument joining
// forward edges holds what they pass; a loop's (a block argument some edge passes back to)
// is assumed to stay in an interval holding what enters it from outside (loopCandidates), and
// the assumption is checked at each back edge against the interval of the value passed back,
// computed under it (an induction: `i + 1` where `i < 17` stays at least 0). A walk whose
// assumption failed is repeated with the next candidate; comparisons are folded only from a
// walk whose assumptions all held.
#include "PassUtils.h"
#include "kaji/abi/KernelABI.h"
#include "kaji/ir/Dominance.h"
#include "kaji/ir/Passes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kaji::ir {

namespace {

using Wide = __int128;

struct Interval {
  Wide lo, hi; // inclusive
};

std::optional<Interval> typeInterval(Type type) {
  if (!type.isInteger())
    return std::nullopt;
  unsigned width = bitWidth(type.scalarKind());
  if (type.isSignedInteger())
    return Interval{-(Wide(1) << (width - 1)), (Wide(1) << (width - 1)) - 1};
  return Interval{0, (Wide(1) << width) - 1};
}

// `interval` if the type holds all of it, else the whole type (the operation may wrap).
Interval within(Type type, Interval interval) {
  Interval whole = *typeInterval(type);
  if (interval.lo < whole.lo || interval.hi > whole.hi)
    return whole;
  return interval;
}

// The values the special register can hold: CUDA's launch limits (abi/KernelABI.h), which
// every launcher checks.
Interval specialRegisterInterval(SpecialReg reg) {
  Wide block = abi::kMaxBlockExtent[reg.dim], grid = abi::kMaxGridExtent[reg.dim];
  switch (reg.kind) {
  case SpecialReg::ThreadIdx:
    return {0, block - 1};
  case SpecialReg::BlockDim:
    return {1, block};
  case SpecialReg::BlockIdx:
    return {0, grid - 1};
  case SpecialReg::GridDim:
    return {1, grid};
  }
  return {0, grid};
}

Wide constantValue(const Operation &op) {
  auto bits = op.attrAs<int64_t>();
  Type type = op.resultType();
  if (!type.isSignedInteger() && bitWidth(type.scalarKind()) == 64)
    return Wide(uint64_t(bits));
  return Wide(bits);
}

// nullopt where a corner leaves the 128 bits (two u64 extremes multiplied).
std::optional<Interval> product(Interval a, Interval b) {
  Wide factors[4][2] = {{a.lo, b.lo}, {a.lo, b.hi}, {a.hi, b.lo}, {a.hi, b.hi}};
  Wide corners[4];
  for (int i = 0; i < 4; ++i)
    if (__builtin_mul_overflow(factors[i][0], factors[i][1], &corners[i]))
      return std::nullopt;
  return Interval{*std::min_element(std::begin(corners), std::end(corners)),
                  *std::max_element(std::begin(corners), std::end(corners))};
}

// Whether `predicate` holds between every pair of values of `a` and `b` (true), for none
// (false), or for some only (nullopt).
std::optional<bool> decide(CmpPredicate predicate, Interval a, Interval b) {
  switch (predicate) {
  case CmpPredicate::Lt:
    if (a.hi < b.lo)
      return true;
    if (a.lo >= b.hi)
      return false;
    return std::nullopt;
  case CmpPredicate::Le:
    if (a.hi <= b.lo)
      return true;
    if (a.lo > b.hi)
      return false;
    return std::nullopt;
  case CmpPredicate::Gt:
    return decide(CmpPredicate::Lt, b, a);
  case CmpPredicate::Ge:
    return decide(CmpPredicate::Le, b, a);
  case CmpPredicate::Eq:
    if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo)
      return true;
    if (a.hi < b.lo || b.hi < a.lo)
      return false;
    return std::nullopt;
  case CmpPredicate::Ne:
    if (auto equal = decide(CmpPredicate::Eq, a, b))
      return !*equal;
    return std::nullopt;
  }
  return std::nullopt;
}

CmpPredicate negated(CmpPredicate predicate) {
  switch (predicate) {
  case CmpPredicate::Eq:
    return CmpPredicate::Ne;
  case CmpPredicate::Ne:
    return CmpPredicate::Eq;
  case CmpPredicate::Lt:
    return CmpPredicate::Ge;
  case CmpPredicate::Le:
    return CmpPredicate::Gt;
  case CmpPredicate::Gt:
    return CmpPredicate::Le;
  case CmpPredicate::Ge:
    return CmpPredicate::Lt;
  }
  return predicate;
}

class RangeFolding {
public:
  explicit RangeFolding(Function &function)
      : function_(function), dominance_(function), predecessors_(predecessorMap(function)) {}

  bool run() {
    if (dominance_.reversePostOrder().empty())
      return false;
    for (unsigned walk = 0;; ++walk) {
      assumeLoops_ = walk < kWalksWithAssumptions;
      computed_.clear();
      assumed_.clear();
      decided_.clear();
      assumptionFailed_ = false;
      visit(dominance_.reversePostOrder().front());
      if (!assumptionFailed_)
        break;
    }
    for (auto [block, position, outcome] : decided_)
      fold(*block, position, outcome);
    forwarding_.rewrite(function_);
    return !forwarding_.empty();
  }

private:
  // A walk after this many whose assumptions failed assumes nothing, so that a function of
  // many loops is walked a bounded number of times.
  static constexpr unsigned kWalksWithAssumptions = 4;

  using LoopArgument = std::pair<const Block *, unsigned>;
  struct Decision {
    Block *block;
    size_t position;
    bool outcome;
  };
  struct Narrowing {
    const Value *value;
    std::optional<Interval> before;
  };

  void visit(Block *root) {
    std::vector<size_t> narrowingsBefore;
    detail::walkDominatorTree(
        dominance_, root,
        [&](Block *block, Block *parent) {
          narrowingsBefore.push_back(narrowings_.size());
          if (parent)
            narrowByEdge(*parent, *block);
          processBlock(*block);
        },
        [&](Block *) {
          undoNarrowingsTo(narrowingsBefore.back());
          narrowingsBefore.pop_back();
        });
  }

  std::optional<Interval> intervalOf(const Value *value) const {
    if (auto found = narrowed_.find(value); found != narrowed_.end())
      return found->second;
    if (auto found = computed_.find(value); found != computed_.end())
      return found->second;
    return typeInterval(value->type());
  }

  void narrow(const Value *value, Interval interval) {
    std::optional<Interval> current = intervalOf(value);
    if (!current)
      return;
    Interval tighter{std::max(current->lo, interval.lo), std::min(current->hi, interval.hi)};
    if (tighter.lo > tighter.hi) // the block cannot run; nothing to learn
      return;
    auto found = narrowed_.find(value);
    narrowings_.push_back(
        {value, found == narrowed_.end() ? std::nullopt : std::optional(found->second)});
    narrowed_[value] = tighter;
  }

  void undoNarrowingsTo(size_t size) {
    while (narrowings_.size() > size) {
      Narrowing undo = narrowings_.back();
      narrowings_.pop_back();
      if (undo.before)
        narrowed_[undo.value] = *undo.before;
      else
        narrowed_.erase(undo.value);
    }
  }

  // `child` is entered only from `parent`'s cond_br, through one of its two different edges:
  // the branch's comparison came out as that edge says.
  void narrowByEdge(const Block &parent, const Block &child) {
    const Operation *branch = parent.terminator();
    auto found = predecessors_.find(&child);
    if (!branch || branch->opcode() != Opcode::CondBr || found == predecessors_.end() ||
        found->second.size() != 1)
      return;
    const auto &successors = branch->successors();
    if (successors[0].block == successors[1].block)
      return;
    const Operation *comparison = branch->operand(0)->definingOp();
    if (!comparison || comparison->opcode() != Opcode::Cmp ||
        !comparison->operand(0)->type().isInteger())
      return;
    CmpPredicate predicate = comparison->attrAs<CmpPredicate>();
    if (successors[1].block == &child)
      predicate = negated(predicate);
    narrowByComparison(predicate, comparison->operand(0), comparison->operand(1));
  }

  void narrowByComparison(CmpPredicate predicate, const Value *a, const Value *b) {
    std::optional<Interval> left = intervalOf(a), right = intervalOf(b);
    if (!left || !right)
      return;
    constexpr Wide kNoBound = Wide(1) << 100;
    switch (predicate) {
    case CmpPredicate::Lt:
      narrow(a, {-kNoBound, right->hi - 1});
      narrow(b, {left->lo + 1, kNoBound});
      break;
    case CmpPredicate::Le:
      narrow(a, {-kNoBound, right->hi});
      narrow(b, {left->lo, kNoBound});
      break;
    case CmpPredicate::Gt:
      narrowByComparison(CmpPredicate::Lt, b, a);
      break;
    case CmpPredicate::Ge:
      narrowByComparison(CmpPredicate::Le, b, a);
      break;
    case CmpPredicate::Eq:
      narrow(a, *right);
      narrow(b, *left);
      break;
    case CmpPredicate::Ne:
      break;
    }
  }

  // The interval of `op`'s integer result, from its operands' intervals in its block.
  std::optional<Interval> compute(const Operation &op) const {
    Type type = op.resultType();
    if (!type.isInteger())
      return std::nullopt;
    auto operand = [&](unsigned i) { return intervalOf(op.operand(i)); };
    switch (op.opcode()) {
    case Opcode::Constant: {
      Wide value = constantValue(op);
      return Interval{value, value};
    }
    case Opcode::SpecialReg:
      return specialRegisterInterval(op.attrAs<SpecialReg>());
    case Opcode::ArrayDim: // launchers refuse larger arrays
      return Interval{0, abi::kMaxArrayBytes};
    case Opcode::Cast:
      if (auto from = operand(0))
        return within(type, *from);
      if (op.operand(0)->type().isBool())
        return Interval{0, 1};
      return std::nullopt;
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Min:
    case Opcode::Max:
    case Opcode::Select:
    case Opcode::Div:
    case Opcode::FloorDiv:
    case Opcode::Mod:
    case Opcode::And:
    case Opcode::Shr:
      break;
    default:
      return std::nullopt;
    }
    unsigned first = op.opcode() == Opcode::Select ? 1 : 0;
    std::optional<Interval> a = operand(first), b = operand(first + 1);
    if (!a || !b)
      return std::nullopt;
    bool nonNegativeDividend = a->lo >= 0, positiveDivisor = b->lo >= 1;
    switch (op.opcode()) {
    case Opcode::Div:      // truncating; x / 0 is 0
    case Opcode::FloorDiv: // floor; x // 0 is 0
      if (nonNegativeDividend && positiveDivisor)
        return Interval{a->lo / b->hi, a->hi / b->lo};
      if (nonNegativeDividend && b->lo >= 0)
        return Interval{0, a->hi};
      return std::nullopt;
    case Opcode::Mod: // the divisor's sign; x % 0 is 0
      if (positiveDivisor)
        return Interval{0, nonNegativeDividend ? std::min(a->hi, b->hi - 1) : b->hi - 1};
      return std::nullopt;
    case Opcode::And: // a non-negative operand bounds the result
      if (nonNegativeDividend || b->lo >= 0)
        return Interval{0,
                        std::min(nonNegativeDividend ? a->hi : b->hi, b->lo >= 0 ? b->hi : a->hi)};
      return std::nullopt;
    case Opcode::Shr: // of a non-negative value by a shift below the width
      if (nonNegativeDividend && b->lo >= 0 && b->hi < Wide(bitWidth(type.scalarKind())))
        return Interval{a->lo >> int(b->hi), a->hi >> int(b->lo)};
      return std::nullopt;
    case Opcode::Add:
      return within(type, {a->lo + b->lo, a->hi + b->hi});
    case Opcode::Sub:
      return within(type, {a->lo - b->hi, a->hi - b->lo});
    case Opcode::Mul:
      if (std::optional<Interval> corners = product(*a, *b))
        return within(type, *corners);
      return typeInterval(type);
    case Opcode::Min:
      return Interval{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    case Opcode::Max:
      return Interval{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    default: // select: either operand
      return Interval{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
    }
  }

  // The interval of `block`'s argument `index`: the union of what forward edges pass, and for
  // a loop's argument, at least the least of what enters from outside (to be checked).
  std::optional<Interval> argumentInterval(const Block &block, unsigned index) {
    Type type = block.argument(index)->type();
    if (!type.isInteger())
      return std::nullopt;
    std::optional<Interval> entering;
    bool loops = false;
    for (const auto &[predecessor, value] : incoming(block, index)) {
      if (dominance_.dominates(&block, predecessor)) {
        loops = true;
        continue;
      }
      std::optional<Interval> passed = intervalOf(value);
      if (!passed)
        return std::nullopt;
      entering = entering ? Interval{std::min(entering->lo, passed->lo),
                                     std::max(entering->hi, passed->hi)}
                          : *passed;
    }
    if (!entering || !loops)
      return entering;
    if (!assumeLoops_)
      return std::nullopt;
    std::vector<Interval> candidates = loopCandidates(*entering, *typeInterval(type));
    unsigned failures = failedAssumptions_[{&block, index}];
    if (failures >= candidates.size())
      return std::nullopt;
    assumed_[{&block, index}] = candidates[failures];
    return candidates[failures];
  }

  // What a loop's argument may be assumed to stay in, given what enters it, in the order
  // tried: at least the least entering (counting up); between 0 and the most entering
  // (counting down to 0, or halving); not negative.
  static std::vector<Interval> loopCandidates(Interval entering, Interval whole) {
    std::vector<Interval> candidates{{entering.lo, whole.hi}};
    if (entering.lo >= 0) {
      candidates.push_back({0, entering.hi});
      if (entering.lo > 0)
        candidates.push_back({0, whole.hi});
    }
    return candidates;
  }

  // The (predecessor, value) of each edge into `block` for its argument `index`.
  std::vector<std::pair<const Block *, const Value *>> incoming(const Block &block,
                                                                unsigned index) const {
    std::vector<std::pair<const Block *, const Value *>> edges;
    auto found = predecessors_.find(&block);
    if (found == predecessors_.end())
      return edges;
    for (const Block *predecessor : found->second)
      for (const Successor &successor : predecessor->terminator()->successors())
        if (successor.block == &block)
          edges.emplace_back(predecessor, successor.args[index]);
    return edges;
  }

  // A back edge from `block` passes each assumed loop argument a value at or above its least.
  void checkBackEdges(const Block &block) {
    const Operation *terminator = block.terminator();
    if (!terminator)
      return;
    for (const Successor &successor : terminator->successors())
      for (unsigned index = 0; index < successor.args.size(); ++index) {
        auto assumption = assumed_.find({successor.block, index});
        if (assumption == assumed_.end())
          continue;
        std::optional<Interval> passed = intervalOf(successor.args[index]);
        if (!passed || passed->lo < assumption->second.lo || passed->hi > assumption->second.hi) {
          ++failedAssumptions_[{successor.block, index}];
          assumptionFailed_ = true;
        }
      }
  }

  void processBlock(Block &block) {
    for (unsigned index = 0; index < block.arguments().size(); ++index)
      if (auto interval = argumentInterval(block, index))
        computed_[block.argument(index)] = *interval;
    auto &ops = block.operations();
    for (size_t i = 0; i < ops.size(); ++i) {
      const Operation &op = *ops[i];
      if (op.opcode() == Opcode::Cmp && op.operand(0)->type().isInteger()) {
        std::optional<Interval> a = intervalOf(op.operand(0)), b = intervalOf(op.operand(1));
        if (auto outcome = a && b ? decide(op.attrAs<CmpPredicate>(), *a, *b) : std::nullopt)
          decided_.push_back({&block, i, *outcome});
        continue;
      }
      if (op.result())
        if (auto interval = compute(op))
          computed_[op.result()] = *interval;
    }
    checkBackEdges(block);
  }

  void fold(Block &block, size_t position, bool outcome) {
    const Operation &comparison = *block.operations()[position];
    auto constant = std::make_unique<Operation>(Opcode::Constant, comparison.resultType(),
                                                std::vector<Value *>{}, Attr(int64_t(outcome)),
                                                comparison.location());
    forwarding_.forward(comparison.result(), constant->result());
    removedOps_.push_back(block.replace(position, std::move(constant)));
  }

  struct LoopArgumentHash {
    size_t operator()(const LoopArgument &argument) const {
      return std::hash<const Block *>()(argument.first) * 31 + argument.second;
    }
  };

  Function &function_;
  DominatorTree dominance_;
  std::unordered_map<const Block *, std::vector<Block *>> predecessors_;
  bool assumeLoops_ = true;
  // How many of each loop argument's assumptions failed in earlier walks.
  std::map<LoopArgument, unsigned> failedAssumptions_;
  std::unordered_map<LoopArgument, Interval, LoopArgumentHash> assumed_;
  bool assumptionFailed_ = false;
  std::vector<Decision> decided_;
  std::unordered_map<const Value *, Interval> computed_;
  std::unordered_map<const Value *, Interval> narrowed_;
  std::vector<Narrowing> narrowings_;
  detail::ValueForwarding forwarding_;
  // Kept until the rewrite so that no new value can reuse a key of `forwarding_`.
  std::vector<std::unique_ptr<Operation>> removedOps_;
};

} // namespace

bool foldComparisonsByRanges(Module &module) {
  bool changed = false;
  for (auto &function : module.functions())
    changed |= RangeFolding(*function).run();
  return changed;
}

} // namespace kaji::ir
