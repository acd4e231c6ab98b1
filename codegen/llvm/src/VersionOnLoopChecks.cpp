#include "VersionOnLoopChecks.h"
#include "LoopSize.h"
#include "VersionLoop.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/ProfDataUtils.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace kaji::codegen {
namespace {

// A weight this many times the other's marks the way a branch almost always goes: the
// index checks' likely-branch weights are far beyond it, ordinary profile guesses below.
constexpr uint64_t kLikelyRatio = 1000;

// Bounds are computed in 128 bits, as integers: the i64 arithmetic of an index agrees with
// them modulo 2^64, so an index whose bounds lie in [0, extent) is exactly what they say. A
// narrower value that is extended is checked to lie in its own type's range in the same way.
constexpr unsigned kBoundBits = 128;

struct LoopCheck {
  llvm::BranchInst *branch;
  bool likely; // the condition's value on the way the branch almost always goes
};

std::optional<bool> likelyWay(const llvm::BranchInst &branch) {
  uint64_t ifTrue = 0, ifFalse = 0;
  if (!llvm::extractBranchWeights(branch, ifTrue, ifFalse))
    return std::nullopt;
  if (ifTrue / std::max<uint64_t>(ifFalse, 1) >= kLikelyRatio)
    return true;
  if (ifFalse / std::max<uint64_t>(ifTrue, 1) >= kLikelyRatio)
    return false;
  return std::nullopt;
}

struct Bounds {
  const llvm::SCEV *least;
  const llvm::SCEV *greatest;
};

// The least and greatest values (in kBoundBits, as integers) `value` takes while `loop` runs,
// as expressions of values available before it, or nothing; and the ranges its extended parts
// must lie in for those to be right (ranges()).
class LoopBounds {
public:
  struct Range {
    Bounds bounds;
    llvm::APInt least, greatest; // in kBoundBits
  };

  LoopBounds(llvm::ScalarEvolution &evolution, const llvm::Loop &loop)
      : evolution_(evolution), loop_(loop),
        wide_(llvm::IntegerType::get(loop.getHeader()->getContext(), kBoundBits)) {}

  std::optional<Bounds> of(const llvm::SCEV *value) {
    if (evolution_.isLoopInvariant(value, &loop_)) {
      const llvm::SCEV *wide = evolution_.getSignExtendExpr(value, wide_);
      return Bounds{wide, wide};
    }
    if (auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(value))
      return ofRecurrence(*recurrence);
    if (auto *sum = llvm::dyn_cast<llvm::SCEVAddExpr>(value)) {
      Bounds total{evolution_.getZero(wide_), evolution_.getZero(wide_)};
      for (const llvm::SCEV *term : sum->operands()) {
        std::optional<Bounds> bounds = of(term);
        if (!bounds)
          return std::nullopt;
        total = {evolution_.getAddExpr(total.least, bounds->least),
                 evolution_.getAddExpr(total.greatest, bounds->greatest)};
      }
      return total;
    }
    if (auto *product = llvm::dyn_cast<llvm::SCEVMulExpr>(value)) {
      auto *factor = llvm::dyn_cast<llvm::SCEVConstant>(product->getOperand(0));
      if (product->getNumOperands() != 2 || !factor)
        return std::nullopt;
      std::optional<Bounds> bounds = of(product->getOperand(1));
      if (!bounds)
        return std::nullopt;
      const llvm::SCEV *scale = evolution_.getSignExtendExpr(factor, wide_);
      Bounds scaled{evolution_.getMulExpr(scale, bounds->least),
                    evolution_.getMulExpr(scale, bounds->greatest)};
      if (factor->getAPInt().isNegative())
        std::swap(scaled.least, scaled.greatest);
      return scaled;
    }
    if (auto *extension = llvm::dyn_cast<llvm::SCEVIntegralCastExpr>(value)) {
      bool zero = llvm::isa<llvm::SCEVZeroExtendExpr>(extension);
      if (!zero && !llvm::isa<llvm::SCEVSignExtendExpr>(extension))
        return std::nullopt;
      const llvm::SCEV *operand = extension->getOperand();
      std::optional<Bounds> bounds = of(operand);
      if (!bounds)
        return std::nullopt;
      unsigned bits = operand->getType()->getIntegerBitWidth();
      llvm::APInt least = zero ? llvm::APInt::getZero(bits) : llvm::APInt::getSignedMinValue(bits);
      llvm::APInt greatest =
          zero ? llvm::APInt::getMaxValue(bits) : llvm::APInt::getSignedMaxValue(bits);
      ranges_.push_back({*bounds, zero ? least.zext(kBoundBits) : least.sext(kBoundBits),
                         zero ? greatest.zext(kBoundBits) : greatest.sext(kBoundBits)});
      return bounds;
    }
    return std::nullopt;
  }

  const std::vector<Range> &ranges() const { return ranges_; }

private:
  // {start, +, step} over its loop (this loop or one inside it): from start's bounds to
  // start + step * (the most back edges it takes).
  std::optional<Bounds> ofRecurrence(const llvm::SCEVAddRecExpr &recurrence) {
    const llvm::Loop *own = recurrence.getLoop();
    if (!recurrence.isAffine() || !loop_.contains(own))
      return std::nullopt;
    const llvm::SCEV *step = recurrence.getStepRecurrence(evolution_);
    const llvm::SCEV *backEdges = evolution_.getSymbolicMaxBackedgeTakenCount(own);
    if (llvm::isa<llvm::SCEVCouldNotCompute>(backEdges) ||
        !evolution_.isLoopInvariant(step, &loop_) || !evolution_.isLoopInvariant(backEdges, &loop_))
      return std::nullopt;
    std::optional<Bounds> start = of(recurrence.getStart());
    if (!start)
      return std::nullopt;
    const llvm::SCEV *travel = evolution_.getMulExpr(
        evolution_.getSignExtendExpr(step, wide_), evolution_.getZeroExtendExpr(backEdges, wide_));
    const llvm::SCEV *zero = evolution_.getZero(wide_);
    return Bounds{evolution_.getAddExpr(start->least, evolution_.getSMinExpr(zero, travel)),
                  evolution_.getAddExpr(start->greatest, evolution_.getSMaxExpr(zero, travel))};
  }

  llvm::ScalarEvolution &evolution_;
  const llvm::Loop &loop_;
  llvm::Type *wide_;
  std::vector<Range> ranges_;
};

// Whether the bounds of every range can be computed before `end`.
bool expandable(llvm::ArrayRef<LoopBounds::Range> ranges, llvm::SCEVExpander &expander) {
  return llvm::all_of(ranges, [&](const LoopBounds::Range &range) {
    return expander.isSafeToExpand(range.bounds.least) &&
           expander.isSafeToExpand(range.bounds.greatest);
  });
}

// "Every range's values lie within its limits" (LoopBounds::ranges()), computed before `end`
// and and-ed onto `holds` (null: true).
llvm::Value *withinLimits(llvm::ArrayRef<LoopBounds::Range> ranges, llvm::Value *holds,
                          llvm::SCEVExpander &expander, llvm::Instruction *end) {
  llvm::IRBuilder<> builder(end);
  llvm::Type *wide = builder.getIntNTy(kBoundBits);
  for (const LoopBounds::Range &range : ranges) {
    llvm::Value *least = expander.expandCodeFor(range.bounds.least, wide, end);
    llvm::Value *greatest = expander.expandCodeFor(range.bounds.greatest, wide, end);
    llvm::Value *within = builder.CreateAnd(
        builder.CreateICmpSGE(least, llvm::ConstantInt::get(wide, range.least)),
        builder.CreateICmpSLE(greatest, llvm::ConstantInt::get(wide, range.greatest)));
    holds = holds ? builder.CreateAnd(holds, within, "check.holds") : within;
  }
  return holds;
}

// The value, computed at the end of the loop's preheader, of "`check` goes its likely way in
// every iteration of `loop`", or null when that cannot be computed before the loop.
llvm::Value *holdsThroughout(const LoopCheck &check, llvm::Loop &loop,
                             llvm::ScalarEvolution &evolution, llvm::SCEVExpander &expander) {
  llvm::Value *condition = check.branch->getCondition();
  llvm::Instruction *end = loop.getLoopPreheader()->getTerminator();
  llvm::IRBuilder<> builder(end);
  bool hoisted = false;
  if (loop.makeLoopInvariant(condition, hoisted))
    return check.likely ? condition : builder.CreateNot(condition);
  namespace match = llvm::PatternMatch;
  llvm::Value *index = nullptr, *extent = nullptr;
  if (!check.likely ||
      !match::match(condition,
                    match::m_SpecificICmp(llvm::ICmpInst::ICMP_ULT, match::m_Value(index),
                                          match::m_Value(extent))) ||
      !index->getType()->isIntegerTy(64) || !loop.makeLoopInvariant(extent, hoisted))
    return nullptr;
  LoopBounds bounds(evolution, loop);
  std::optional<Bounds> indexBounds = bounds.of(evolution.getSCEV(index));
  if (!indexBounds)
    return nullptr;
  if (!expandable(bounds.ranges(), expander) || !expander.isSafeToExpand(indexBounds->least) ||
      !expander.isSafeToExpand(indexBounds->greatest))
    return nullptr;
  llvm::Value *holds = withinLimits(bounds.ranges(), nullptr, expander, end);
  // index u< extent for every index in [least, greatest] exactly when least >= 0 and
  // greatest u< extent, which for a non-negative greatest is a signed compare in 128 bits.
  llvm::Type *wide = builder.getIntNTy(kBoundBits);
  llvm::Value *least = expander.expandCodeFor(indexBounds->least, wide, end);
  llvm::Value *greatest = expander.expandCodeFor(indexBounds->greatest, wide, end);
  llvm::Value *within =
      builder.CreateAnd(builder.CreateICmpSGE(least, llvm::ConstantInt::get(wide, 0)),
                        builder.CreateICmpSLT(greatest, builder.CreateSExt(extent, wide)));
  return holds ? builder.CreateAnd(holds, within, "check.holds") : within;
}

// A loop inside the versioned one whose back edge may be decided never taken.
struct SingleIteration {
  llvm::BranchInst *latch;
  bool exitWay; // the latch condition's value that leaves the loop
};

// The value, computed at the end of `loop`'s preheader, of "`inner` runs at most once in every
// iteration of `loop`", or null when that cannot be computed there: its latch goes on while
// `next s< bound`, with `bound` invariant in `loop` and `next` = {first, +, step} over `inner`,
// and `first` — the value after one iteration, `start + step` — is at least `bound` (and within
// i64, so that the i64 sum did not wrap) for every iteration of `loop`. A grid-stride loop
// whose grid has a thread per element is one: the thread loop around it then has no loop inside
// and vectorises.
llvm::Value *runsOnceThroughout(const llvm::Loop &inner, llvm::Loop &loop,
                                llvm::ScalarEvolution &evolution, llvm::SCEVExpander &expander,
                                SingleIteration &decision) {
  llvm::BasicBlock *latch = inner.getLoopLatch();
  auto *branch = latch ? llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator()) : nullptr;
  auto *compare = branch && branch->isConditional()
                      ? llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition())
                      : nullptr;
  if (!compare || !inner.isLoopExiting(latch))
    return nullptr;
  bool goesOnWhenTrue = branch->getSuccessor(0) == inner.getHeader();
  llvm::ICmpInst::Predicate predicate =
      goesOnWhenTrue ? compare->getPredicate() : compare->getInversePredicate();
  llvm::Value *next = compare->getOperand(0), *bound = compare->getOperand(1);
  if (predicate == llvm::ICmpInst::ICMP_SGT) {
    std::swap(next, bound);
    predicate = llvm::ICmpInst::ICMP_SLT;
  }
  bool hoisted = false;
  if (predicate != llvm::ICmpInst::ICMP_SLT || !next->getType()->isIntegerTy(64) ||
      !loop.makeLoopInvariant(bound, hoisted))
    return nullptr;
  auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(evolution.getSCEV(next));
  if (!recurrence || recurrence->getLoop() != &inner || !recurrence->isAffine())
    return nullptr;
  LoopBounds bounds(evolution, loop);
  std::optional<Bounds> first = bounds.of(recurrence->getStart());
  if (!first)
    return nullptr;
  if (!expandable(bounds.ranges(), expander) || !expander.isSafeToExpand(first->least) ||
      !expander.isSafeToExpand(first->greatest))
    return nullptr;
  llvm::Instruction *end = loop.getLoopPreheader()->getTerminator();
  llvm::IRBuilder<> builder(end);
  llvm::Type *wide = builder.getIntNTy(kBoundBits);
  llvm::Value *least = expander.expandCodeFor(first->least, wide, end);
  llvm::Value *greatest = expander.expandCodeFor(first->greatest, wide, end);
  llvm::Value *holds = builder.CreateAnd(
      builder.CreateICmpSGE(least, builder.CreateSExt(bound, wide)),
      builder.CreateICmpSLE(
          greatest,
          llvm::ConstantInt::get(wide, llvm::APInt::getSignedMaxValue(64).sext(kBoundBits))),
      "runs.once");
  decision = {branch, !goesOnWhenTrue};
  return withinLimits(bounds.ranges(), holds, expander, end);
}

// The tests in `loop` (at any depth) that almost always go one way, not yet decided.
llvm::SmallVector<LoopCheck> likelyBranches(const llvm::Loop &loop) {
  llvm::SmallVector<LoopCheck> checks;
  for (llvm::BasicBlock *block : loop.blocks()) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() || llvm::isa<llvm::Constant>(branch->getCondition()))
      continue;
    if (std::optional<bool> likely = likelyWay(*branch))
      checks.push_back({branch, *likely});
  }
  return checks;
}

// Versions `loop` on the tests it can decide before it, then its kept copy on the loops inside
// it that run at most once (a launch whose grid is smaller than the work still has its
// decided tests); returns whether it did either.
bool versionOnChecks(llvm::Loop &loop, llvm::LoopInfo &loops, llvm::DominatorTree &dominators,
                     llvm::ScalarEvolution &evolution) {
  llvm::SmallVector<LoopCheck> candidates = likelyBranches(loop);
  llvm::SmallVector<llvm::Loop *, 4> inner = loop.getLoopsInPreorder();
  if (candidates.empty() && inner.size() == 1)
    return false;
  llvm::simplifyLoop(&loop, &dominators, &loops, &evolution, nullptr, nullptr, false);
  if (!loop.getLoopPreheader())
    return false;
  llvm::SCEVExpander expander(evolution, loop.getHeader()->getModule()->getDataLayout(),
                              "check.bounds");
  llvm::IRBuilder<> builder(loop.getLoopPreheader()->getTerminator());
  llvm::Value *allHold = nullptr;
  llvm::SmallVector<LoopCheck> decided;
  for (const LoopCheck &check : candidates)
    if (llvm::Value *holds = holdsThroughout(check, loop, evolution, expander)) {
      allHold = allHold ? builder.CreateAnd(allHold, holds, "checks.hold") : holds;
      decided.push_back(check);
    }
  llvm::Value *allOnce = nullptr;
  llvm::SmallVector<SingleIteration> once;
  for (llvm::Loop *candidate : llvm::drop_begin(inner)) {
    SingleIteration decision{};
    if (llvm::Value *holds = runsOnceThroughout(*candidate, loop, evolution, expander, decision)) {
      allOnce = allOnce ? builder.CreateAnd(allOnce, holds, "loops.run.once") : holds;
      once.push_back(decision);
    }
  }
  if (decided.empty() && once.empty())
    return false;
  llvm::formLCSSA(loop, dominators, &loops, &evolution);
  if (!decided.empty()) {
    versionLoop(loop, allHold, ".checked", loops, dominators);
    for (const LoopCheck &check : decided)
      check.branch->setCondition(builder.getInt1(check.likely));
  }
  if (!once.empty()) {
    // The checked copy shares the loop's exits: they are dedicated to the loop again first.
    llvm::simplifyLoop(&loop, &dominators, &loops, &evolution, nullptr, nullptr, false);
    llvm::formLCSSA(loop, dominators, &loops, &evolution);
    versionLoop(loop, allOnce, ".iterated", loops, dominators);
    for (const SingleIteration &decision : once)
      decision.latch->setCondition(builder.getInt1(decision.exitWay));
  }
  evolution.forgetLoop(&loop);
  return true;
}

} // namespace

llvm::PreservedAnalyses VersionOnLoopChecksPass::run(llvm::Function &function,
                                                     llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  bool versioned = false;
  // From the outermost loop in: a loop inside a versioned one is visited in the kept copy
  // (the copies made here are not), for what its outer loop could not decide.
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (instructionCount(*loop) <= kMaxInstructions &&
        !llvm::findStringMetadataForLoop(loop, kDecideChecksInside))
      versioned |= versionOnChecks(*loop, loops, dominators, evolution);
  return preservedByVersioning(versioned);
}

} // namespace kaji::codegen
