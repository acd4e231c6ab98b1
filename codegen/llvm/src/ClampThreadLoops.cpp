#include "ClampThreadLoops.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/Analysis/DomTreeUpdater.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <vector>

namespace kaji::codegen {
namespace {

namespace match = llvm::PatternMatch;

// The interval's ends are computed in 128 bits: a 64-bit index and a 64-bit bound, each
// extended as its test reads it, differ by less than 2^65.
constexpr unsigned kWideBits = 128;

// What a thread must pass to do anything in one iteration of a loop over threads, as the
// counter's interval [least, end) where the tests hold, and the loop-invariant conditions.
class Guard {
public:
  Guard(llvm::Loop &loop, llvm::ScalarEvolution &evolution)
      : loop_(loop), evolution_(evolution),
        wide_(llvm::IntegerType::get(loop.getHeader()->getContext(), kWideBits)) {}

  // Takes in what `condition` having the value `holds` says: an `and` of parts (an `or` when
  // it must be false) says each part's, a test of an affine index an interval, a condition
  // that does not change in the loop itself. Other parts say nothing.
  void require(llvm::Value *condition, bool holds) {
    llvm::Value *first = nullptr, *second = nullptr, *inner = nullptr;
    if (holds ? match::match(condition,
                             match::m_LogicalAnd(match::m_Value(first), match::m_Value(second)))
              : match::match(condition,
                             match::m_LogicalOr(match::m_Value(first), match::m_Value(second)))) {
      require(first, holds);
      require(second, holds);
    } else if (match::match(condition, match::m_Not(match::m_Value(inner)))) {
      require(inner, !holds);
    } else if (auto *frozen = llvm::dyn_cast<llvm::FreezeInst>(condition)) {
      require(frozen->getOperand(0), holds);
    } else if (llvm::isa<llvm::Constant>(condition)) {
      return;
    } else if (loop_.isLoopInvariant(condition)) {
      invariants_.push_back({condition, holds});
    } else if (auto *test = llvm::dyn_cast<llvm::ICmpInst>(condition)) {
      if (bound(test->getPredicate(), test->getOperand(0), test->getOperand(1), holds))
        decided_.push_back({test, holds});
    }
  }

  bool empty() const { return decided_.empty() && invariants_.empty(); }

  struct Decision {
    llvm::Value *condition;
    bool holds;
  };
  // The tests whose value inside the interval is known, and the loop-invariant conditions.
  const std::vector<Decision> &decided() const { return decided_; }
  const std::vector<Decision> &invariants() const { return invariants_; }
  // The counter's bounds, in kWideBits: it runs from the greatest of lowers() up to (not
  // including) the least of ends().
  const std::vector<const llvm::SCEV *> &lowers() const { return lowers_; }
  const std::vector<const llvm::SCEV *> &ends() const { return ends_; }

private:
  // Adds the interval of the counter where `left predicate right` is `holds`; false when the
  // test is not of an affine index without wrap against a loop-invariant bound.
  bool bound(llvm::CmpInst::Predicate predicate, llvm::Value *left, llvm::Value *right,
             bool holds) {
    if (!holds)
      predicate = llvm::CmpInst::getInversePredicate(predicate);
    const llvm::SCEV *index = evolution_.getSCEV(left);
    const llvm::SCEV *limit = evolution_.getSCEV(right);
    if (!llvm::isa<llvm::SCEVAddRecExpr>(index)) {
      std::swap(index, limit);
      predicate = llvm::CmpInst::getSwappedPredicate(predicate);
    }
    auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(index);
    if (!recurrence || recurrence->getLoop() != &loop_ || !recurrence->isAffine() ||
        !evolution_.isLoopInvariant(limit, &loop_))
      return false;
    auto *step = llvm::dyn_cast<llvm::SCEVConstant>(recurrence->getStepRecurrence(evolution_));
    if (!step || !(step->getAPInt().isOne() || step->getAPInt().isAllOnes()))
      return false;
    bool noSignedWrap = recurrence->hasNoSignedWrap();
    bool noUnsignedWrap = recurrence->hasNoUnsignedWrap();
    using P = llvm::CmpInst::Predicate;
    if (predicate == P::ICMP_EQ) {
      if (!noSignedWrap && !noUnsignedWrap)
        return false;
      return relational(noSignedWrap ? P::ICMP_SGE : P::ICMP_UGE, *recurrence, limit) &&
             relational(noSignedWrap ? P::ICMP_SLE : P::ICMP_ULE, *recurrence, limit);
    }
    if (predicate == P::ICMP_NE) {
      // An index that never goes below the bound differs from it where it is above it.
      for (auto [known, strict] : {std::pair{P::ICMP_SGE, P::ICMP_SGT},
                                   {P::ICMP_UGE, P::ICMP_UGT},
                                   {P::ICMP_SLE, P::ICMP_SLT},
                                   {P::ICMP_ULE, P::ICMP_ULT}})
        if (evolution_.isKnownPredicate(known, index, limit))
          return relational(strict, *recurrence, limit);
      return false;
    }
    return relational(predicate, *recurrence, limit);
  }

  // `{start,+,step} predicate limit`, step 1 or -1, for a relational predicate.
  bool relational(llvm::CmpInst::Predicate predicate, const llvm::SCEVAddRecExpr &index,
                  const llvm::SCEV *limit) {
    bool isSigned = llvm::CmpInst::isSigned(predicate);
    if (!(isSigned ? index.hasNoSignedWrap() : index.hasNoUnsignedWrap()))
      return false;
    auto widen = [&](const llvm::SCEV *value) {
      return isSigned ? evolution_.getSignExtendExpr(value, wide_)
                      : evolution_.getZeroExtendExpr(value, wide_);
    };
    const llvm::SCEV *start = widen(index.getStart());
    const llvm::SCEV *bound = widen(limit);
    const llvm::SCEV *one = evolution_.getOne(wide_);
    bool rising =
        llvm::cast<llvm::SCEVConstant>(index.getStepRecurrence(evolution_))->getAPInt().isOne();
    // A rising index start + i is below the limit for i < limit - start; a falling one,
    // start - i, for i > start - limit.
    const llvm::SCEV *distance =
        rising ? evolution_.getMinusSCEV(bound, start) : evolution_.getMinusSCEV(start, bound);
    bool below = llvm::ICmpInst::isLT(predicate) || llvm::ICmpInst::isLE(predicate);
    bool orEqual = llvm::ICmpInst::isLE(predicate) || llvm::ICmpInst::isGE(predicate);
    if (below == rising)
      ends_.push_back(orEqual ? evolution_.getAddExpr(distance, one) : distance);
    else
      lowers_.push_back(orEqual ? distance : evolution_.getAddExpr(distance, one));
    return true;
  }

  llvm::Loop &loop_;
  llvm::ScalarEvolution &evolution_;
  llvm::Type *wide_;
  std::vector<Decision> decided_;
  std::vector<Decision> invariants_;
  std::vector<const llvm::SCEV *> lowers_;
  std::vector<const llvm::SCEV *> ends_;
};

// Whether running `block` leaves a trace; a thread's stack slots beginning and ending their
// lifetime (each iteration both) do not.
bool hasEffects(const llvm::BasicBlock &block) {
  return llvm::any_of(block, [](const llvm::Instruction &instruction) {
    return instruction.mayHaveSideEffects() && !instruction.isLifetimeStartOrEnd() &&
           !llvm::isa<llvm::NoAliasScopeDeclInst>(instruction) &&
           !llvm::isa<llvm::AssumeInst>(instruction);
  });
}

// A loop over threads whose guard can be decided, with what it takes to clamp it.
struct Clampable {
  llvm::Loop *loop;
  llvm::PHINode *counter;
  Guard guard;
  std::vector<llvm::BranchInst *> branches; // the guard's, from the header on
};

// The loop's guard: the branches from its header towards its body, each on a block without
// effects whose other way goes to the latch, itself without effects. Nothing when the loop is
// not a counted loop over threads whose skipped iterations do nothing.
std::optional<Clampable> guardOf(llvm::Loop &loop, llvm::ScalarEvolution &evolution) {
  llvm::BasicBlock *header = loop.getHeader();
  llvm::BasicBlock *latch = loop.getLoopLatch();
  llvm::PHINode *counter = loop.getCanonicalInductionVariable();
  if (!counter || !latch || latch == header || !loop.getLoopPreheader() ||
      loop.getExitingBlock() != latch || !loop.getExitBlock() ||
      llvm::range_size(header->phis()) != 1 || !latch->phis().empty() || hasEffects(*latch) ||
      llvm::isa<llvm::SCEVCouldNotCompute>(evolution.getBackedgeTakenCount(&loop)))
    return std::nullopt;
  // Skipped iterations must leave nothing that is read after the loop.
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &instruction : *block)
      for (llvm::User *user : instruction.users())
        if (!loop.contains(llvm::cast<llvm::Instruction>(user)))
          return std::nullopt;
  Clampable clampable{&loop, counter, Guard(loop, evolution), {}};
  for (llvm::BasicBlock *block = header;;) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() || hasEffects(*block))
      break;
    bool skipsIfTrue = branch->getSuccessor(0) == latch;
    llvm::BasicBlock *next = branch->getSuccessor(skipsIfTrue ? 1 : 0);
    if (!skipsIfTrue && branch->getSuccessor(1) != latch)
      break;
    if (next == latch)
      break;
    clampable.guard.require(branch->getCondition(), !skipsIfTrue);
    clampable.branches.push_back(branch);
    if (!next->getSinglePredecessor())
      break;
    block = next;
  }
  if (clampable.guard.empty())
    return std::nullopt;
  return clampable;
}

// Runs the loop over [least, end) of its counter, entered when that is not empty; the tests
// it decides take their value inside it.
void clamp(Clampable &clampable, llvm::ScalarEvolution &evolution, llvm::DominatorTree &dominators,
           llvm::LoopInfo &loops) {
  llvm::Loop &loop = *clampable.loop;
  const Guard &guard = clampable.guard;
  llvm::BasicBlock *outer = loop.getLoopPreheader();
  llvm::BasicBlock *latch = loop.getLoopLatch();
  llvm::BasicBlock *exit = loop.getExitBlock();
  llvm::Type *wide = llvm::IntegerType::get(outer->getContext(), kWideBits);
  const llvm::SCEV *count = evolution.getAddExpr(
      evolution.getZeroExtendExpr(evolution.getBackedgeTakenCount(&loop), wide),
      evolution.getOne(wide));
  llvm::SmallVector<const llvm::SCEV *, 4> lowers(guard.lowers().begin(), guard.lowers().end());
  llvm::SmallVector<const llvm::SCEV *, 4> ends(guard.ends().begin(), guard.ends().end());
  lowers.push_back(evolution.getZero(wide));
  ends.push_back(count);
  const llvm::SCEV *least = evolution.getSMaxExpr(lowers);
  const llvm::SCEV *end = evolution.getSMinExpr(ends);

  llvm::BasicBlock *preheader = llvm::SplitEdge(outer, loop.getHeader(), &dominators, &loops);
  llvm::BasicBlock *exitPath = llvm::SplitEdge(latch, exit, &dominators, &loops);
  llvm::Instruction *before = outer->getTerminator();
  const llvm::DataLayout &layout = outer->getModule()->getDataLayout();
  llvm::SCEVExpander expander(evolution, layout, "clamp");
  llvm::Value *first = expander.expandCodeFor(least, wide, before);
  llvm::Value *last = expander.expandCodeFor(end, wide, before);
  llvm::IRBuilder<> builder(before);
  llvm::Value *enter = builder.CreateICmpSLT(first, last, "threads.pass");
  for (const Guard::Decision &invariant : guard.invariants())
    enter = builder.CreateAnd(enter, invariant.holds ? invariant.condition
                                                     : builder.CreateNot(invariant.condition));
  llvm::Type *counterType = clampable.counter->getType();
  clampable.counter->setIncomingValueForBlock(
      preheader, builder.CreateTrunc(first, counterType, "threads.first"));
  llvm::Value *stop = builder.CreateTrunc(last, counterType, "threads.end");
  builder.CreateCondBr(enter, preheader, exit);
  before->eraseFromParent();
  for (llvm::PHINode &phi : exit->phis())
    phi.addIncoming(phi.getIncomingValueForBlock(exitPath), outer);
  dominators.insertEdge(outer, exit);

  auto *back = llvm::cast<llvm::BranchInst>(latch->getTerminator());
  llvm::Value *next = clampable.counter->getIncomingValueForBlock(latch);
  builder.SetInsertPoint(back);
  back->setCondition(back->getSuccessor(0) == loop.getHeader()
                         ? builder.CreateICmpULT(next, stop, "threads.go_on")
                         : builder.CreateICmpUGE(next, stop, "threads.done"));

  for (const Guard::Decision &decided : guard.decided())
    decided.condition->replaceAllUsesWith(
        llvm::ConstantInt::getBool(decided.condition->getContext(), decided.holds));
  for (const Guard::Decision &invariant : guard.invariants())
    invariant.condition->replaceUsesWithIf(
        llvm::ConstantInt::getBool(invariant.condition->getContext(), invariant.holds),
        [&](llvm::Use &use) {
          auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
          return user && loop.contains(user);
        });
  llvm::DomTreeUpdater updater(dominators, llvm::DomTreeUpdater::UpdateStrategy::Eager);
  for (llvm::BranchInst *branch : clampable.branches) {
    llvm::BasicBlock *block = branch->getParent();
    llvm::SimplifyInstructionsInBlock(block);
    llvm::ConstantFoldTerminator(block, true, nullptr, &updater);
  }
  evolution.forgetLoop(&loop);
}

} // namespace

llvm::PreservedAnalyses ClampThreadLoopsPass::run(llvm::Function &function,
                                                  llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  std::vector<Clampable> clampable;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (llvm::findStringMetadataForLoop(loop, kThreadLoop))
      if (std::optional<Clampable> guarded = guardOf(*loop, evolution))
        clampable.push_back(std::move(*guarded));
  for (Clampable &guarded : clampable)
    clamp(guarded, evolution, dominators, loops);
  if (clampable.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserve<llvm::DominatorTreeAnalysis>();
  preserved.preserve<llvm::LoopAnalysis>();
  return preserved;
}

} // namespace kaji::codegen
