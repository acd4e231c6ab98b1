#include "InterchangeThreadLoops.h"
#include "LoopSize.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>
#include <vector>

namespace kaji::codegen {
namespace {

// A value of the part before the inner loop that the later parts use is recomputed there
// when it is a pure function of the thread index and values from outside the loop over
// threads, of at most this many instructions; otherwise each thread's value is kept.
constexpr unsigned kMaxRecomputed = 16;
// A trip count (a division, minima and maxima of the bounds) is recomputed from up to this many.
constexpr unsigned kMaxTripCountSteps = 48;

using BlockSet = llvm::SmallPtrSet<llvm::BasicBlock *, 32>;

// An induction variable of the inner loop: at iteration k it is start + k * step.
struct Affine {
  llvm::PHINode *phi;
  llvm::Value *step; // expanded before the loop over threads
  // What SCEV knows of start + k * step over the loop's iterations: it wraps in neither sense
  // (the multiplication neither, with a step known non-negative).
  bool noSignedWrap = false;
  bool noUnsignedWrap = false;
  bool stepNonNegative = false;
};

// The loop over threads L, with one inner loop I:
//   L.header .. guard (the part before) -> I.preheader -> I -> I.exit -> join .. L.latch
// where the guard's other successor, when it branches, is the join (the inner loop may run
// no iteration), and other branches of the part before may go past the loop into the part
// after (the blocks reached from I.exit).
struct ThreadLoopNest {
  llvm::Loop *threads = nullptr;
  llvm::Loop *inner = nullptr;
  llvm::PHINode *thread = nullptr;
  // Header phis of L other than its counter: carried from thread to thread by the part after.
  std::vector<llvm::PHINode *> carriedByAfter;
  std::vector<llvm::BasicBlock *> before; // L.header first; holds the guard
  std::vector<llvm::BasicBlock *> after;  // reached from I.exit, up to L.latch
  llvm::BasicBlock *guard = nullptr;
  llvm::BasicBlock *innerPreheader = nullptr;
  llvm::BasicBlock *innerExit = nullptr;
  // The ways from the part before to the part after that pass the loop by (the guard's among
  // them): (from, to).
  std::vector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>> skips;
  llvm::DominatorTree *dominators = nullptr;
  llvm::BasicBlock *threadsPreheader = nullptr;
  llvm::BasicBlock *threadsExit = nullptr;
  bool guarded = false;
  uint64_t maxThreads = 0;
  llvm::Value *threadCount = nullptr; // in L's preheader
  llvm::Value *tripCount = nullptr;   // i64, computed in the guard block
  std::vector<Affine> affine;
  std::vector<llvm::PHINode *> carried; // inner header phis kept per thread
  // Values of the part before (and of the inner loop's preheader) that later parts use.
  llvm::SetVector<llvm::Instruction *> used;
  // Of those, the ones recomputed in each later part: the instructions of each, in order.
  llvm::DenseMap<llvm::Instruction *, std::vector<llvm::Instruction *>> recomputed;
  // Inner loop values the part after reads (the incoming values of I.exit's phis).
  llvm::SetVector<llvm::Value *> leaving;
  // The instructions that recompute tripCount (operands first).
  std::vector<llvm::Instruction *> tripCountSteps;
  // Trip counts that never grow with the thread index (orderedByThread): the least and the
  // greatest are the last and the first thread's, computed in L's preheader, and a thread's
  // own count, or whether its loop runs (`runs`, the guard's way to the loop), is recomputed
  // where it is needed rather than kept.
  bool ordered = false;
  llvm::Value *runs = nullptr;
  llvm::Value *leastTrips = nullptr;
  llvm::Value *greatestTrips = nullptr;
  std::vector<llvm::Instruction *> runsSteps;
  // With ordered trip counts, the part before may have nothing to run (nothing to keep, no
  // effect) and the part after nothing but L's latch.
  bool needsBefore = true;
  bool needsAfter = true;
  // A thread's own memory (its local arrays, the record of an index error it reports): the
  // entry's allocas that L uses, each thread's copy in an array of them once threads
  // interleave; and the pointers into them computed outside L, operands first.
  std::vector<llvm::AllocaInst *> privateMemory;
  std::vector<llvm::Instruction *> privatePointers;
};

// Lifetime and alias-scope markers: they say something of one thread's run of the body, which
// the rewrite interleaves with the others'; clones drop them, and they are nothing to run.
bool isMarker(const llvm::Instruction &instruction) {
  return instruction.isLifetimeStartOrEnd() || llvm::isa<llvm::NoAliasScopeDeclInst>(instruction);
}

// Inserts a copy of `original` at the builder, its operands mapped by `map`, which then maps
// `original` to the copy.
void insertCopy(llvm::Instruction *original, llvm::ValueToValueMapTy &map,
                llvm::IRBuilderBase &builder) {
  llvm::Instruction *copy = original->clone();
  copy->setName(original->getName());
  builder.Insert(copy);
  llvm::RemapInstruction(copy, map, llvm::RF_NoModuleLevelChanges | llvm::RF_IgnoreMissingLocals);
  map[original] = copy;
}

// Emits `steps`, a recomputation of `value` (operands first), at the builder with the counter
// replaced by `thread`; returns the copy of `value` (`value` itself when it has no steps).
llvm::Value *replay(llvm::Value *value, llvm::ArrayRef<llvm::Instruction *> steps,
                    llvm::PHINode *counter, llvm::Value *thread, llvm::IRBuilderBase &builder) {
  if (value == counter)
    return thread;
  llvm::ValueToValueMapTy local;
  local[counter] = thread;
  for (llvm::Instruction *step : steps)
    insertCopy(step, local, builder);
  llvm::Value *copy = local.lookup(value);
  return copy ? copy : value;
}

// What `map` maps `value` to, or `value` itself (defined outside what was cloned).
llvm::Value *mappedIn(llvm::ValueToValueMapTy &map, llvm::Value *value) {
  llvm::Value *mapped = map.lookup(value);
  return mapped ? mapped : value;
}

llvm::BasicBlock *clonedBlock(llvm::ValueToValueMapTy &map, llvm::BasicBlock *original) {
  return llvm::cast<llvm::BasicBlock>(map.lookup(original));
}

// The instructions that compute `value` inside the loop over threads from its counter and
// values from outside it, operands first; none when that is not a short pure computation. A
// value every thread computes in the original (the trip count, in the guard block that each
// thread passes) may divide by an operand not known to be non-zero: its recomputation divides
// by the same.
std::optional<std::vector<llvm::Instruction *>> recomputation(llvm::Instruction *value,
                                                              const ThreadLoopNest &nest,
                                                              bool everyThreadComputes = false,
                                                              unsigned limit = kMaxRecomputed) {
  std::vector<llvm::Instruction *> order;
  llvm::SmallPtrSet<llvm::Instruction *, 16> seen;
  bool ok = true;
  auto visit = [&](auto &self, llvm::Instruction *instruction) -> void {
    if (!ok || instruction == nest.thread || !nest.threads->contains(instruction) ||
        !seen.insert(instruction).second)
      return;
    if (llvm::isa<llvm::PHINode>(instruction) || instruction->mayReadOrWriteMemory() ||
        instruction->mayHaveSideEffects() ||
        (!everyThreadComputes && !llvm::isSafeToSpeculativelyExecute(instruction)) ||
        seen.size() > limit) {
      ok = false;
      return;
    }
    for (llvm::Value *operand : instruction->operands()) {
      // A pointer into a thread's own memory is the thread's copy's only where the part
      // that computes it maps that memory.
      if (llvm::isa<llvm::AllocaInst>(operand) || llvm::is_contained(nest.privatePointers, operand))
        ok = false;
      if (auto *defined = llvm::dyn_cast<llvm::Instruction>(operand))
        self(self, defined);
    }
    order.push_back(instruction);
  };
  visit(visit, value);
  if (!ok)
    return std::nullopt;
  return order;
}

// Whether no thread runs more iterations of the inner loop than one before it. The loop goes on
// while `i + step P bound` (P one of <, <=, signed or not) for an induction variable i with a
// positive step and a bound from outside L, and it is entered, unless unguarded, when
// `start Q limit` (Q likewise, the limit from outside L): a later thread enters it only if an
// earlier one does, and leaves it no later, when its start does not decrease with the thread
// index and does not wrap in either comparison's signedness.
bool orderedByThread(const ThreadLoopNest &nest, llvm::ScalarEvolution &evolution) {
  using llvm::CmpInst;
  if (nest.skips.size() != (nest.guarded ? 1u : 0u))
    return false;
  llvm::Loop &inner = *nest.inner;
  auto outside = [&](llvm::Value *value) {
    auto *defined = llvm::dyn_cast<llvm::Instruction>(value);
    return !defined || !nest.threads->contains(defined);
  };
  // The comparison of a branch that goes to `onTrue` while it holds, as `operand P outside`.
  auto comparison =
      [&](llvm::BasicBlock *block,
          llvm::BasicBlock *onTrue) -> std::optional<std::pair<CmpInst::Predicate, llvm::Value *>> {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    auto *compare = branch && branch->isConditional()
                        ? llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition())
                        : nullptr;
    if (!compare)
      return std::nullopt;
    CmpInst::Predicate predicate = branch->getSuccessor(0) == onTrue
                                       ? compare->getPredicate()
                                       : compare->getInversePredicate();
    llvm::Value *operand = compare->getOperand(0);
    if (!outside(compare->getOperand(1))) {
      operand = compare->getOperand(1);
      predicate = CmpInst::getSwappedPredicate(predicate);
      if (!outside(compare->getOperand(0)))
        return std::nullopt;
    }
    if (predicate != CmpInst::ICMP_SLT && predicate != CmpInst::ICMP_ULT &&
        predicate != CmpInst::ICMP_SLE && predicate != CmpInst::ICMP_ULE)
      return std::nullopt;
    return std::make_pair(predicate, operand);
  };
  auto latch = comparison(inner.getLoopLatch(), inner.getHeader());
  if (!latch)
    return false;
  const Affine *variable = nullptr;
  for (const Affine &candidate : nest.affine)
    if (candidate.phi->getIncomingValueForBlock(inner.getLoopLatch()) == latch->second)
      variable = &candidate;
  if (!variable)
    return false;
  const auto *recurrence = llvm::cast<llvm::SCEVAddRecExpr>(evolution.getSCEV(variable->phi));
  if (!evolution.isKnownPositive(recurrence->getStepRecurrence(evolution)))
    return false;
  const llvm::SCEV *start =
      evolution.getSCEV(variable->phi->getIncomingValueForBlock(nest.innerPreheader));
  // Whether the start grows with the thread index, as `predicate` orders values.
  auto growing = [&](CmpInst::Predicate predicate) {
    const auto *byThread = llvm::dyn_cast<llvm::SCEVAddRecExpr>(start);
    if (!byThread)
      return evolution.isLoopInvariant(start, nest.threads);
    bool noWrap =
        CmpInst::isSigned(predicate) ? byThread->hasNoSignedWrap() : byThread->hasNoUnsignedWrap();
    return byThread->getLoop() == nest.threads && byThread->isAffine() && noWrap &&
           evolution.isKnownNonNegative(byThread->getStepRecurrence(evolution));
  };
  if (!growing(latch->first))
    return false;
  if (!nest.guarded)
    return true;
  auto guard = comparison(nest.guard, nest.innerPreheader);
  return guard && evolution.getSCEV(guard->second) == start && growing(guard->first);
}

// Whether a rewrite with ordered trip counts needs the loop over threads before the inner
// loop's iterations: to keep values or carried phis, or for what it does.
bool needsBefore(const ThreadLoopNest &nest) {
  if (!nest.carried.empty())
    return true;
  for (llvm::Instruction *value : nest.used)
    if (!nest.recomputed.count(value))
      return true;
  std::vector<llvm::BasicBlock *> blocks = nest.before;
  blocks.push_back(nest.innerPreheader);
  for (llvm::BasicBlock *block : blocks)
    for (llvm::Instruction &instruction : *block)
      if (instruction.mayHaveSideEffects() && !isMarker(instruction))
        return true;
  return false;
}

// Whether the part after holds more than L's latch: its counter's increment and test.
bool needsAfter(const ThreadLoopNest &nest) {
  if (!nest.carriedByAfter.empty())
    return true;
  llvm::BasicBlock *latch = nest.threads->getLoopLatch();
  auto *latchBranch = llvm::cast<llvm::BranchInst>(latch->getTerminator());
  std::vector<llvm::BasicBlock *> blocks = nest.after;
  if (nest.guarded)
    blocks.push_back(nest.innerExit);
  for (llvm::BasicBlock *block : blocks)
    for (llvm::Instruction &instruction : *block)
      if (!instruction.isTerminator() && !isMarker(instruction) &&
          &instruction != nest.thread->getIncomingValueForBlock(latch) &&
          &instruction != latchBranch->getCondition())
        return true;
  for (llvm::PHINode &phi : nest.threadsExit->phis()) {
    auto *value = llvm::dyn_cast<llvm::Instruction>(phi.getIncomingValueForBlock(latch));
    if (value && nest.threads->contains(value))
      return true;
  }
  return false;
}

// The entry's allocas that L uses, and the pointers into them computed outside L; false when L
// allocates, when such memory is used outside L (but by lifetime markers), or when the copies
// for every thread would not fit in kMaxPrivateBytes.
bool findPrivateMemory(ThreadLoopNest &nest) {
  for (llvm::BasicBlock *block : nest.threads->blocks())
    for (llvm::Instruction &instruction : *block)
      if (llvm::isa<llvm::AllocaInst>(instruction))
        return false;
  const llvm::DataLayout &layout = nest.threads->getHeader()->getDataLayout();
  uint64_t bytes = 0;
  for (llvm::Instruction &instruction : nest.threads->getHeader()->getParent()->getEntryBlock()) {
    auto *memory = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
    if (!memory)
      continue;
    bool usedInside = false, usedOutside = false;
    std::vector<llvm::Instruction *> pointers;
    std::vector<llvm::Value *> work{memory};
    while (!work.empty()) {
      llvm::Value *pointer = work.back();
      work.pop_back();
      for (llvm::User *user : pointer->users()) {
        auto *use = llvm::cast<llvm::Instruction>(user);
        if (nest.threads->contains(use)) {
          usedInside = true;
        } else if (llvm::isa<llvm::GetElementPtrInst, llvm::CastInst>(use)) {
          pointers.push_back(use);
          work.push_back(use);
        } else if (!use->isLifetimeStartOrEnd()) {
          usedOutside = true;
        }
      }
    }
    // Memory of another loop (a copy of L's, UnswitchThreadLoops.h) is none of L's.
    if (!usedInside)
      continue;
    if (usedOutside)
      return false;
    std::optional<llvm::TypeSize> size = memory->getAllocationSize(layout);
    if (!size || size->isScalable())
      return false;
    bytes += nest.maxThreads * llvm::alignTo(size->getFixedValue(), memory->getAlign().value());
    if (bytes > InterchangeThreadLoopsPass::kMaxPrivateBytes)
      return false;
    nest.privateMemory.push_back(memory);
    nest.privatePointers.insert(nest.privatePointers.end(), pointers.begin(), pointers.end());
  }
  return true;
}

// Recognises the nest around `threads` and prepares it (its trip counts computed in the IR);
// false when it is not one this pass rewrites.
bool analyse(llvm::Loop &threads, llvm::DominatorTree &dominators, llvm::ScalarEvolution &evolution,
             ThreadLoopNest &nest) {
  if (threads.getSubLoops().size() != 1 ||
      instructionCount(threads) > InterchangeThreadLoopsPass::kMaxThreadLoopInstructions)
    return false;
  llvm::Loop &inner = *threads.getSubLoops().front();
  if (!inner.isInnermost() || !threads.isLoopSimplifyForm() || !inner.isLoopSimplifyForm() ||
      !threads.isLCSSAForm(dominators) || !inner.isLCSSAForm(dominators) ||
      instructionCount(inner) > InterchangeThreadLoopsPass::kMaxInnerInstructions)
    return false;
  nest.threads = &threads;
  nest.inner = &inner;
  nest.thread = threads.getCanonicalInductionVariable();
  nest.threadsPreheader = threads.getLoopPreheader();
  nest.threadsExit = threads.getExitBlock();
  llvm::BasicBlock *threadsLatch = threads.getLoopLatch();
  if (!nest.thread || !nest.threadsExit || threads.getExitingBlock() != threadsLatch)
    return false;
  const llvm::SCEV *threadsTaken = evolution.getBackedgeTakenCount(&threads);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(threadsTaken) ||
      evolution.getUnsignedRangeMax(threadsTaken).uge(InterchangeThreadLoopsPass::kMaxThreads))
    return false;
  nest.maxThreads = evolution.getUnsignedRangeMax(threadsTaken).getZExtValue() + 1;

  // The inner loop: entered from its preheader (behind a guard or not), left at its latch.
  nest.innerPreheader = inner.getLoopPreheader();
  nest.innerExit = inner.getExitBlock();
  if (!nest.innerExit || inner.getExitingBlock() != inner.getLoopLatch())
    return false;
  nest.guard = nest.innerPreheader->getSinglePredecessor();
  if (!nest.guard || !threads.contains(nest.guard))
    return false;
  auto *guardBranch = llvm::dyn_cast<llvm::BranchInst>(nest.guard->getTerminator());
  auto *exitBranch = llvm::dyn_cast<llvm::BranchInst>(nest.innerExit->getTerminator());
  if (!guardBranch || !exitBranch)
    return false;
  nest.guarded = guardBranch->isConditional();
  // Where the guard goes when the inner loop runs no iteration.
  llvm::BasicBlock *join = nullptr;
  if (nest.guarded) {
    unsigned skip = guardBranch->getSuccessor(0) == nest.innerPreheader ? 1 : 0;
    join = guardBranch->getSuccessor(skip);
    if (guardBranch->getSuccessor(1 - skip) != nest.innerPreheader || exitBranch->isConditional() ||
        join == nest.innerPreheader)
      return false;
  }

  // The blocks of L outside I: after the inner loop (reached from its exit), or before it.
  // A thread may go from the part before to the part after without running the loop: the
  // guard's way past it, or a branch around it (`if i < n:` around the loop).
  BlockSet afterSet, beforeSet;
  std::vector<llvm::BasicBlock *> work{nest.innerExit};
  BlockSet reached{nest.innerExit};
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    for (llvm::BasicBlock *successor : llvm::successors(block))
      if (threads.contains(successor) && successor != threads.getHeader() &&
          reached.insert(successor).second)
        work.push_back(successor);
  }
  for (llvm::BasicBlock *block : threads.blocks()) {
    if (inner.contains(block) || block == nest.innerPreheader ||
        (nest.guarded && block == nest.innerExit))
      continue;
    if (reached.contains(block))
      afterSet.insert(block);
    else
      beforeSet.insert(block);
  }
  if (!afterSet.contains(threadsLatch) || !beforeSet.contains(threads.getHeader()) ||
      !beforeSet.contains(nest.guard) || (join && !afterSet.contains(join)))
    return false;
  for (llvm::BasicBlock *block : threads.blocks()) {
    if (!beforeSet.contains(block))
      continue;
    BlockSet targets;
    for (llvm::BasicBlock *successor : llvm::successors(block)) {
      if (beforeSet.contains(successor) ||
          (block == nest.guard && successor == nest.innerPreheader))
        continue;
      if (!afterSet.contains(successor) || !targets.insert(successor).second)
        return false;
      nest.skips.push_back({block, successor});
    }
  }
  for (llvm::BasicBlock *block : afterSet)
    for (llvm::BasicBlock *successor : llvm::successors(block))
      if (!afterSet.contains(successor) && block != threadsLatch)
        return false;
  nest.before.push_back(threads.getHeader());
  for (llvm::BasicBlock *block : threads.blocks())
    if (beforeSet.contains(block) && block != threads.getHeader())
      nest.before.push_back(block);
  for (llvm::BasicBlock *block : threads.blocks())
    if (afterSet.contains(block))
      nest.after.push_back(block);
  nest.dominators = &dominators;

  // Header phis of L: its counter, and values only the part after reads and updates.
  for (llvm::PHINode &phi : threads.getHeader()->phis()) {
    if (&phi == nest.thread)
      continue;
    for (const llvm::User *user : phi.users()) {
      const llvm::BasicBlock *where = llvm::cast<llvm::Instruction>(user)->getParent();
      if (!afterSet.contains(where) && where != nest.innerExit && where != nest.threadsExit)
        return false;
    }
    nest.carriedByAfter.push_back(&phi);
  }

  if (!findPrivateMemory(nest))
    return false;

  // Values defined before the inner loop that later parts use; none used outside L but by
  // its exit's phis.
  auto isBefore = [&](llvm::BasicBlock *block) {
    return beforeSet.contains(block) || block == nest.innerPreheader;
  };
  for (llvm::BasicBlock *block : threads.blocks()) {
    if (!isBefore(block))
      continue;
    for (llvm::Instruction &instruction : *block) {
      if (&instruction == nest.thread ||
          (block == threads.getHeader() && llvm::isa<llvm::PHINode>(instruction)))
        continue;
      // A phi of the part after reads its value on a way past the loop there too.
      for (llvm::User *user : instruction.users()) {
        llvm::BasicBlock *where = llvm::cast<llvm::Instruction>(user)->getParent();
        if (isBefore(where))
          continue;
        if (!threads.contains(where) && where != nest.threadsExit)
          return false;
        nest.used.insert(&instruction);
      }
    }
  }

  // The inner loop's header phis: recomputed from the iteration number, or kept per thread;
  // its values the part after reads.
  llvm::BasicBlock *innerHeader = inner.getHeader();
  for (llvm::PHINode &phi : innerHeader->phis()) {
    const auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(evolution.getSCEV(&phi));
    llvm::SCEVExpander expander(evolution, innerHeader->getDataLayout(), "interchange");
    if (recurrence && recurrence->getLoop() == &inner && recurrence->isAffine() &&
        evolution.isLoopInvariant(recurrence->getStepRecurrence(evolution), &threads) &&
        expander.isSafeToExpandAt(recurrence->getStepRecurrence(evolution),
                                  nest.threadsPreheader->getTerminator()))
      nest.affine.push_back({&phi, nullptr});
    else if (phi.getType()->isSized())
      nest.carried.push_back(&phi);
    else
      return false;
    if (auto *start =
            llvm::dyn_cast<llvm::Instruction>(phi.getIncomingValueForBlock(nest.innerPreheader));
        start && threads.contains(start) && start != nest.thread)
      nest.used.insert(start);
  }
  // A carried phi's next value shares its array: one that is another header phi, or the next
  // value of two, would need two.
  llvm::SmallPtrSet<llvm::Value *, 8> nextValues;
  for (llvm::PHINode *phi : nest.carried) {
    auto *next =
        llvm::dyn_cast<llvm::Instruction>(phi->getIncomingValueForBlock(inner.getLoopLatch()));
    if (!next || !inner.contains(next) ||
        (next->getParent() == innerHeader && llvm::isa<llvm::PHINode>(next)) ||
        !nextValues.insert(next).second)
      return false;
  }
  for (llvm::PHINode &phi : nest.innerExit->phis()) {
    llvm::Value *value = phi.getIncomingValue(0);
    auto *defined = llvm::dyn_cast<llvm::Instruction>(value);
    if (defined && inner.contains(defined))
      nest.leaving.insert(value);
    else if (defined && threads.contains(defined) && defined != nest.thread)
      nest.used.insert(defined);
  }
  for (llvm::Instruction *value : nest.used)
    if (auto order = recomputation(value, nest))
      nest.recomputed[value] = std::move(*order);

  // The trip counts: each thread's inner loop runs tripCount iterations, computed where the
  // guard decides whether it runs at all.
  // L's recurrences are written in terms of its counter, which the clones of the part before
  // map to theirs: expanded as they are, they could add an induction variable to L.
  llvm::LoopToScevMapT atThread;
  atThread[&threads] = evolution.getUnknown(nest.thread);
  const llvm::SCEV *innerTaken = evolution.getBackedgeTakenCount(&inner);
  if (!llvm::isa<llvm::SCEVCouldNotCompute>(innerTaken))
    innerTaken = llvm::SCEVLoopAddRecRewriter::rewrite(innerTaken, atThread, evolution);
  llvm::SCEVExpander expander(evolution, innerHeader->getDataLayout(), "interchange");
  llvm::Instruction *guardPoint = nest.guard->getTerminator();
  if (llvm::isa<llvm::SCEVCouldNotCompute>(innerTaken) ||
      evolution.getTypeSizeInBits(innerTaken->getType()) > 64 ||
      !expander.isSafeToExpandAt(innerTaken, guardPoint))
    return false;
  llvm::IRBuilder<> builder(guardPoint);
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Value *taken = expander.expandCodeFor(innerTaken, nullptr, guardPoint);
  llvm::Value *tripCount =
      builder.CreateAdd(builder.CreateZExt(taken, i64), builder.getInt64(1), "trip.count");
  llvm::Value *runs = nullptr;
  if (nest.guarded) {
    runs = guardBranch->getSuccessor(0) == nest.innerPreheader
               ? guardBranch->getCondition()
               : builder.CreateNot(guardBranch->getCondition());
    tripCount = builder.CreateSelect(runs, tripCount, builder.getInt64(0), "trip.count");
  }
  nest.tripCount = tripCount;
  if (auto *computed = llvm::dyn_cast<llvm::Instruction>(tripCount)) {
    auto steps = recomputation(computed, nest, /*everyThreadComputes=*/true, kMaxTripCountSteps);
    if (!steps)
      return false;
    nest.tripCountSteps = std::move(*steps);
  }
  llvm::Instruction *preheaderEnd = nest.threadsPreheader->getTerminator();
  nest.threadCount = expander.expandCodeFor(
      evolution.getAddExpr(threadsTaken, evolution.getOne(threadsTaken->getType())),
      nest.thread->getType(), preheaderEnd);
  for (Affine &variable : nest.affine) {
    const auto *recurrence = llvm::cast<llvm::SCEVAddRecExpr>(evolution.getSCEV(variable.phi));
    variable.step =
        expander.expandCodeFor(recurrence->getStepRecurrence(evolution), nullptr, preheaderEnd);
    variable.noSignedWrap = recurrence->hasNoSignedWrap();
    variable.noUnsignedWrap = recurrence->hasNoUnsignedWrap();
    variable.stepNonNegative =
        evolution.isKnownNonNegative(recurrence->getStepRecurrence(evolution));
  }

  if (orderedByThread(nest, evolution)) {
    std::optional<std::vector<llvm::Instruction *>> runsSteps;
    if (auto *computed = llvm::dyn_cast_or_null<llvm::Instruction>(runs))
      runsSteps = recomputation(computed, nest, /*everyThreadComputes=*/true);
    if (!runs || runsSteps) {
      nest.runs = runs;
      nest.ordered = true;
      if (runsSteps)
        nest.runsSteps = std::move(*runsSteps);
      builder.SetInsertPoint(preheaderEnd);
      llvm::Type *counterType = nest.thread->getType();
      nest.greatestTrips = replay(tripCount, nest.tripCountSteps, nest.thread,
                                  llvm::ConstantInt::get(counterType, 0), builder);
      nest.leastTrips = replay(
          tripCount, nest.tripCountSteps, nest.thread,
          builder.CreateSub(nest.threadCount, llvm::ConstantInt::get(counterType, 1)), builder);
      nest.needsBefore = needsBefore(nest);
      nest.needsAfter = needsAfter(nest);
    }
  }
  return true;
}

// Rewrites one recognised nest into its three loops over threads.
class Interchange {
public:
  Interchange(ThreadLoopNest &nest)
      : nest_(nest), function_(*nest.threads->getHeader()->getParent()),
        context_(function_.getContext()), builder_(context_) {}

  void run() {
    allocatePrivateMemory();
    allocateSlots();
    if (nest_.ordered) {
      least_ = nest_.leastTrips;
      greatest_ = nest_.greatestTrips;
    }
    llvm::BasicBlock *next = nest_.threadsPreheader;
    next->getTerminator()->eraseFromParent();
    if (nest_.needsBefore)
      next = buildBefore();
    next = buildIterations(next, /*masked=*/false, builder_.getInt64(0), least_);
    next = buildIterations(next, /*masked=*/true, least_, greatest_);
    if (nest_.needsAfter)
      buildAfter(next);
    else
      leave(next);
    removeOriginal();
  }

private:
  llvm::BasicBlock *block(const llvm::Twine &name) {
    return llvm::BasicBlock::Create(context_, name, &function_);
  }

  // The per-thread arrays, on the entry's stack.
  llvm::AllocaInst *slotFor(llvm::Type *type, const llvm::Twine &name) {
    llvm::IRBuilder<> entry(&*function_.getEntryBlock().getFirstInsertionPt());
    return entry.CreateAlloca(llvm::ArrayType::get(type, nest_.maxThreads), nullptr, name);
  }

  // Each thread's copy of the memory private to it: an array of them, each at the alloca's
  // alignment.
  void allocatePrivateMemory() {
    const llvm::DataLayout &layout = function_.getDataLayout();
    llvm::IRBuilder<> entry(&*function_.getEntryBlock().getFirstInsertionPt());
    for (llvm::AllocaInst *memory : nest_.privateMemory) {
      uint64_t stride = llvm::alignTo(memory->getAllocationSize(layout)->getFixedValue(),
                                      memory->getAlign().value());
      llvm::AllocaInst *copies =
          entry.CreateAlloca(llvm::ArrayType::get(entry.getInt8Ty(), stride * nest_.maxThreads),
                             nullptr, memory->getName() + ".threads");
      copies->setAlignment(memory->getAlign());
      privateCopies_.push_back({copies, stride});
    }
  }

  // The thread's copies of its private memory, and the pointers into them, into `map`.
  void providePrivateMemory(llvm::Value *thread, llvm::ValueToValueMapTy &map) {
    for (size_t k = 0; k < nest_.privateMemory.size(); ++k) {
      auto [copies, stride] = privateCopies_[k];
      llvm::Value *offset = builder_.CreateMul(
          builder_.CreateZExtOrTrunc(thread, builder_.getInt64Ty()), builder_.getInt64(stride));
      map[nest_.privateMemory[k]] = builder_.CreateInBoundsGEP(builder_.getInt8Ty(), copies, offset,
                                                               nest_.privateMemory[k]->getName());
    }
    for (llvm::Instruction *pointer : nest_.privatePointers)
      insertCopy(pointer, map, builder_);
  }

  void allocateSlots() {
    if (!nest_.ordered) {
      tripCounts_ = slotFor(builder_.getInt64Ty(), "trip.counts");
      if (!nest_.skips.empty())
        paths_ = slotFor(builder_.getInt32Ty(), "paths");
    }
    for (llvm::Instruction *value : nest_.used)
      if (!nest_.recomputed.count(value))
        beforeSlots_[value] = slotFor(value->getType(), value->getName() + ".threads");
    for (llvm::PHINode *phi : nest_.carried) {
      llvm::AllocaInst *slot = slotFor(phi->getType(), phi->getName() + ".threads");
      carriedSlots_[phi] = slot;
      // After the last iteration a carried phi's array holds the value it leaves with.
      leavingSlots_[phi->getIncomingValueForBlock(nest_.inner->getLoopLatch())] = slot;
    }
    for (llvm::Value *value : nest_.leaving)
      if (!leavingSlots_.count(value)) {
        leavingSlots_[value] = slotFor(value->getType(), value->getName() + ".threads");
        storedLeaving_.push_back(value);
      }
  }

  llvm::Value *element(llvm::AllocaInst *slot, llvm::Value *thread) {
    return builder_.CreateInBoundsGEP(slot->getAllocatedType(), slot,
                                      {builder_.getInt64(0), thread});
  }
  llvm::Value *load(llvm::AllocaInst *slot, llvm::Value *thread, const llvm::Twine &name) {
    return builder_.CreateLoad(slot->getAllocatedType()->getArrayElementType(),
                               element(slot, thread), name);
  }

  // A loop over the threads from `entry`: returns its counter with the builder in its body;
  // closeThreadLoop ends it.
  llvm::PHINode *openThreadLoop(llvm::BasicBlock *entry, const llvm::Twine &name) {
    llvm::BasicBlock *header = block(name);
    builder_.SetInsertPoint(entry);
    builder_.CreateBr(header);
    builder_.SetInsertPoint(header);
    llvm::PHINode *thread = builder_.CreatePHI(nest_.thread->getType(), 2, name);
    thread->addIncoming(llvm::ConstantInt::get(thread->getType(), 0), entry);
    return thread;
  }
  // Ends the loop of `thread` at the builder's block; returns the block after it.
  llvm::BasicBlock *closeThreadLoop(llvm::PHINode *thread) {
    llvm::Value *next = builder_.CreateNUWAdd(thread, llvm::ConstantInt::get(thread->getType(), 1));
    thread->addIncoming(next, builder_.GetInsertBlock());
    llvm::BasicBlock *exit = block(thread->getName() + ".done");
    markLoop(*builder_.CreateCondBr(builder_.CreateICmpULT(next, nest_.threadCount),
                                    thread->getParent(), exit),
             kThreadLoop);
    return exit;
  }

  // Clones `blocks` with `map` (which already holds what differs) and remaps them.
  std::vector<llvm::BasicBlock *> cloneBlocks(llvm::ArrayRef<llvm::BasicBlock *> blocks,
                                              llvm::ValueToValueMapTy &map,
                                              const llvm::Twine &suffix) {
    std::vector<llvm::BasicBlock *> clones;
    for (llvm::BasicBlock *original : blocks) {
      llvm::ValueToValueMapTy fresh;
      llvm::BasicBlock *clone = llvm::CloneBasicBlock(original, fresh, suffix, &function_);
      for (auto entry = fresh.begin(); entry != fresh.end(); ++entry)
        if (!map.count(entry->first))
          map[entry->first] = entry->second;
      map[original] = clone;
      clones.push_back(clone);
    }
    llvm::remapInstructionsInBlocks(clones, map);
    for (llvm::BasicBlock *clone : clones)
      for (llvm::Instruction &instruction : llvm::make_early_inc_range(*clone))
        if (isMarker(instruction))
          instruction.eraseFromParent();
    return clones;
  }

  // Drops the phis a clone of `original` starts with, whose values `map` replaced.
  void dropPhis(llvm::BasicBlock *original, llvm::ValueToValueMapTy &map) {
    auto *clone = clonedBlock(map, original);
    while (auto *phi = llvm::dyn_cast<llvm::PHINode>(&clone->front()))
      phi->eraseFromParent();
  }

  // The values of the part before that a later part uses, for `thread`, into `map`, at the
  // builder's position.
  void provideBeforeValues(llvm::Value *thread, llvm::ValueToValueMapTy &map) {
    for (llvm::Instruction *value : nest_.used) {
      if (auto found = nest_.recomputed.find(value); found != nest_.recomputed.end()) {
        map[value] = replay(value, found->second, nest_.thread, thread, builder_);
      } else {
        map[value] = load(beforeSlots_.lookup(value), thread, value->getName());
      }
    }
  }

  // For each thread, the part before; keeps the values later parts read and, unless they are
  // ordered, the trip counts with their least and greatest, and the way each thread went on.
  llvm::BasicBlock *buildBefore() {
    llvm::BasicBlock *preheader = nest_.threadsPreheader;
    llvm::PHINode *thread = openThreadLoop(preheader, "before.thread");
    bool counting = !nest_.ordered;
    llvm::Type *i64 = builder_.getInt64Ty();
    llvm::PHINode *least = nullptr, *greatest = nullptr;
    if (counting) {
      least = builder_.CreatePHI(i64, 2, "trip.least");
      greatest = builder_.CreatePHI(i64, 2, "trip.greatest");
      least->addIncoming(builder_.getInt64(UINT64_MAX), preheader);
      greatest->addIncoming(builder_.getInt64(0), preheader);
    }

    llvm::ValueToValueMapTy map;
    map[nest_.thread] = thread;
    providePrivateMemory(thread, map);
    std::vector<llvm::BasicBlock *> blocks = nest_.before;
    blocks.push_back(nest_.innerPreheader);
    cloneBlocks(blocks, map, ".before");
    dropPhis(nest_.threads->getHeader(), map);
    builder_.CreateBr(clonedBlock(map, nest_.threads->getHeader()));

    // Every way on ends the thread's part before: into the loop (way 0), or past it.
    llvm::BasicBlock *keep = block("before.keep");
    auto *preheaderClone = clonedBlock(map, nest_.innerPreheader);
    preheaderClone->getTerminator()->eraseFromParent();
    llvm::BranchInst::Create(keep, preheaderClone);
    std::vector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>> ways{
        {preheaderClone, nest_.innerPreheader}}; // (into keep, from the original block)
    for (auto [from, to] : nest_.skips) {
      llvm::BasicBlock *way = block("before.skip");
      clonedBlock(map, from)->getTerminator()->replaceSuccessorWith(to, way);
      llvm::BranchInst::Create(keep, way);
      ways.emplace_back(way, from);
    }

    builder_.SetInsertPoint(keep);
    // A value for each way on: a phi when there are several.
    auto merge = [&](llvm::Type *type, auto &&onWay) -> llvm::Value * {
      if (ways.size() == 1)
        return onWay(0u);
      llvm::PHINode *merged = builder_.CreatePHI(type, unsigned(ways.size()));
      for (unsigned k = 0; k < ways.size(); ++k)
        merged->addIncoming(onWay(k), ways[k].first);
      return merged;
    };
    // A value on the ways it is defined on, poison on the others (where later parts do not
    // read it).
    auto kept = [&](llvm::Value *value) {
      return merge(value->getType(), [&](unsigned k) -> llvm::Value * {
        auto *defined = llvm::dyn_cast<llvm::Instruction>(value);
        if (defined && nest_.threads->contains(defined) && defined != nest_.thread &&
            !nest_.dominators->dominates(defined->getParent(), ways[k].second))
          return llvm::PoisonValue::get(value->getType());
        return mappedIn(map, value);
      });
    };
    std::vector<std::pair<llvm::AllocaInst *, llvm::Value *>> stores;
    for (auto &[value, slot] : beforeSlots_)
      stores.emplace_back(slot, kept(value));
    for (auto &[phi, slot] : carriedSlots_)
      stores.emplace_back(slot, kept(phi->getIncomingValueForBlock(nest_.innerPreheader)));
    llvm::Value *tripCount = nullptr;
    if (counting) {
      tripCount = merge(i64, [&](unsigned k) -> llvm::Value * {
        return k == 0 ? mappedIn(map, nest_.tripCount) : builder_.getInt64(0);
      });
      if (paths_)
        stores.emplace_back(paths_, merge(builder_.getInt32Ty(), [&](unsigned k) -> llvm::Value * {
                              return builder_.getInt32(k);
                            }));
    }
    for (auto &[slot, value] : stores)
      builder_.CreateStore(value, element(slot, thread));
    llvm::Value *nextLeast = nullptr, *nextGreatest = nullptr;
    if (counting) {
      builder_.CreateStore(tripCount, element(tripCounts_, thread));
      nextLeast = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, least, tripCount);
      nextGreatest = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, greatest, tripCount);
      least->addIncoming(nextLeast, keep);
      greatest->addIncoming(nextGreatest, keep);
    }
    llvm::BasicBlock *exit = closeThreadLoop(thread);
    if (counting) {
      builder_.SetInsertPoint(exit);
      llvm::PHINode *leastOut = builder_.CreatePHI(i64, 1, "trip.least");
      leastOut->addIncoming(nextLeast, keep);
      llvm::PHINode *greatestOut = builder_.CreatePHI(i64, 1, "trip.greatest");
      greatestOut->addIncoming(nextGreatest, keep);
      least_ = leastOut;
      greatest_ = greatestOut;
    }
    return exit;
  }

  // The thread's trip count in a later part.
  llvm::Value *tripCountOf(llvm::Value *thread) {
    if (nest_.ordered)
      return replay(nest_.tripCount, nest_.tripCountSteps, nest_.thread, thread, builder_);
    return load(tripCounts_, thread, "trip.count");
  }

  // For k in [first, end), for each thread (whose trip count exceeds k when `masked`): the
  // inner loop's iteration k. Returns the block after.
  llvm::BasicBlock *buildIterations(llvm::BasicBlock *entry, bool masked, llvm::Value *first,
                                    llvm::Value *end) {
    const char *name = masked ? "remaining" : "common";
    llvm::BasicBlock *iterationHeader = block(llvm::Twine(name) + ".iteration");
    llvm::BasicBlock *exit = block(llvm::Twine(name) + ".done");
    builder_.SetInsertPoint(entry);
    builder_.CreateCondBr(builder_.CreateICmpULT(first, end), iterationHeader, exit);
    builder_.SetInsertPoint(iterationHeader);
    llvm::PHINode *iteration = builder_.CreatePHI(builder_.getInt64Ty(), 2, "k");
    iteration->addIncoming(first, entry);

    llvm::PHINode *thread = openThreadLoop(iterationHeader, llvm::Twine(name) + ".thread");
    llvm::BasicBlock *body = block(llvm::Twine(name) + ".body");
    llvm::BasicBlock *latch = block(llvm::Twine(name) + ".next");
    if (masked) {
      builder_.CreateCondBr(builder_.CreateICmpULT(iteration, tripCountOf(thread)), body, latch);
    } else {
      builder_.CreateBr(body);
    }

    builder_.SetInsertPoint(body);
    llvm::ValueToValueMapTy map;
    map[nest_.thread] = thread;
    providePrivateMemory(thread, map);
    provideBeforeValues(thread, map);
    auto mapped = [&](llvm::Value *value) { return mappedIn(map, value); };
    for (const Affine &variable : nest_.affine) {
      llvm::Value *start = mapped(variable.phi->getIncomingValueForBlock(nest_.innerPreheader));
      llvm::Type *stepType = variable.step->getType();
      // Wrapping in neither sense, start + k * step does not wrap its product either: with
      // k and the step non-negative the product is at most the sum (unsigned) and below 2^63.
      bool exact = variable.noSignedWrap && variable.noUnsignedWrap && variable.stepNonNegative;
      llvm::Value *offset = builder_.CreateMul(builder_.CreateZExtOrTrunc(iteration, stepType),
                                               variable.step, "", exact, exact);
      map[variable.phi] =
          variable.phi->getType()->isPointerTy()
              ? builder_.CreateGEP(builder_.getInt8Ty(), start, offset, variable.phi->getName())
              : builder_.CreateAdd(start, offset, variable.phi->getName(), variable.noUnsignedWrap,
                                   variable.noSignedWrap);
    }
    for (llvm::PHINode *phi : nest_.carried)
      map[phi] = load(carriedSlots_[phi], thread, phi->getName());
    llvm::Loop &inner = *nest_.inner;
    std::vector<llvm::BasicBlock *> blocks(inner.block_begin(), inner.block_end());
    std::vector<llvm::BasicBlock *> clones = cloneBlocks(blocks, map, llvm::Twine(".") + name);
    dropPhis(inner.getHeader(), map);
    builder_.CreateBr(clonedBlock(map, inner.getHeader()));

    // The latch's clone ends the iteration: what the next one and the part after read.
    auto *latchClone = clonedBlock(map, inner.getLoopLatch());
    latchClone->getTerminator()->eraseFromParent();
    builder_.SetInsertPoint(latchClone);
    for (auto &[phi, slot] : carriedSlots_)
      builder_.CreateStore(mapped(phi->getIncomingValueForBlock(inner.getLoopLatch())),
                           element(slot, thread));
    for (llvm::Value *value : storedLeaving_)
      builder_.CreateStore(mapped(value), element(leavingSlots_[value], thread));
    builder_.CreateBr(latch);

    builder_.SetInsertPoint(latch);
    llvm::BasicBlock *threadsDone = closeThreadLoop(thread);
    builder_.SetInsertPoint(threadsDone);
    llvm::Value *nextIteration = builder_.CreateNUWAdd(iteration, builder_.getInt64(1));
    iteration->addIncoming(nextIteration, threadsDone);
    builder_.CreateCondBr(builder_.CreateICmpULT(nextIteration, end), iterationHeader, exit);
    return exit;
  }

  // For each thread, the part after: from the inner loop's exit, or from the guard when the
  // thread's loop ran no iteration.
  void buildAfter(llvm::BasicBlock *entry) {
    llvm::PHINode *thread = openThreadLoop(entry, "after.thread");
    llvm::BasicBlock *header = thread->getParent();
    llvm::BasicBlock *threadsLatch = nest_.threads->getLoopLatch();
    std::vector<std::pair<llvm::PHINode *, llvm::PHINode *>> carried;
    for (llvm::PHINode *phi : nest_.carriedByAfter) {
      llvm::PHINode *copy = builder_.CreatePHI(phi->getType(), 2, phi->getName());
      copy->addIncoming(phi->getIncomingValueForBlock(nest_.threadsPreheader), entry);
      carried.emplace_back(phi, copy);
    }
    llvm::ValueToValueMapTy map;
    map[nest_.thread] = thread;
    for (auto &[phi, copy] : carried)
      map[phi] = copy;
    providePrivateMemory(thread, map);
    provideBeforeValues(thread, map);
    for (llvm::PHINode &phi : nest_.innerExit->phis()) {
      llvm::Value *value = phi.getIncomingValue(0);
      map[&phi] = leavingSlots_.count(value) ? load(leavingSlots_[value], thread, phi.getName())
                                             : mappedIn(map, value);
    }
    // The way the thread went on from the part before: into the loop, or past it (ordered
    // trip counts have only the guard's way past it).
    llvm::Value *path = nullptr;
    if (!nest_.skips.empty())
      path = nest_.ordered
                 ? builder_.CreateZExt(builder_.CreateNot(replay(nest_.runs, nest_.runsSteps,
                                                                 nest_.thread, thread, builder_)),
                                       builder_.getInt32Ty())
                 : load(paths_, thread, "path");
    std::vector<llvm::BasicBlock *> blocks;
    if (nest_.guarded)
      blocks.push_back(nest_.innerExit);
    blocks.insert(blocks.end(), nest_.after.begin(), nest_.after.end());
    cloneBlocks(blocks, map, ".after");
    dropPhis(nest_.innerExit, map);
    auto *exitClone = clonedBlock(map, nest_.innerExit);
    if (!path) {
      builder_.CreateBr(exitClone);
    } else {
      llvm::SwitchInst *toPath =
          builder_.CreateSwitch(path, exitClone, unsigned(nest_.skips.size()));
      for (unsigned k = 0; k < nest_.skips.size(); ++k) {
        auto [from, to] = nest_.skips[k];
        llvm::BasicBlock *way = block("after.skip");
        toPath->addCase(builder_.getInt32(k + 1), way);
        llvm::BasicBlock *toClone = clonedBlock(map, to);
        llvm::BranchInst::Create(toClone, way);
        for (llvm::PHINode &phi : toClone->phis())
          for (unsigned index = 0; index < phi.getNumIncomingValues(); ++index)
            if (phi.getIncomingBlock(index) == from)
              phi.setIncomingBlock(index, way);
      }
    }

    auto *latchClone = clonedBlock(map, threadsLatch);
    latchClone->getTerminator()->replaceSuccessorWith(nest_.threads->getHeader(), header);
    thread->addIncoming(mappedIn(map, nest_.thread->getIncomingValueForBlock(threadsLatch)),
                        latchClone);
    for (auto &[phi, copy] : carried)
      copy->addIncoming(mappedIn(map, phi->getIncomingValueForBlock(threadsLatch)), latchClone);
    for (llvm::PHINode &phi : nest_.threadsExit->phis()) {
      int index = phi.getBasicBlockIndex(threadsLatch);
      phi.setIncomingValue(index, mappedIn(map, phi.getIncomingValue(index)));
      phi.setIncomingBlock(index, latchClone);
    }
  }

  // Without a part after, the iterations go on to L's exit, whose phis take values from outside
  // L (needsAfter).
  void leave(llvm::BasicBlock *from) {
    builder_.SetInsertPoint(from);
    builder_.CreateBr(nest_.threadsExit);
    for (llvm::PHINode &phi : nest_.threadsExit->phis())
      phi.setIncomingBlock(phi.getBasicBlockIndex(nest_.threads->getLoopLatch()), from);
  }

  void removeOriginal() {
    std::vector<llvm::BasicBlock *> blocks(nest_.threads->block_begin(),
                                           nest_.threads->block_end());
    for (llvm::BasicBlock *original : blocks)
      original->dropAllReferences();
    for (llvm::BasicBlock *original : blocks)
      original->eraseFromParent();
  }

  ThreadLoopNest &nest_;
  llvm::Function &function_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  llvm::AllocaInst *tripCounts_ = nullptr;
  // Each thread's way on from the part before: 0 into the loop, k + 1 nest.skips[k].
  llvm::AllocaInst *paths_ = nullptr;
  std::vector<std::pair<llvm::AllocaInst *, uint64_t>> privateCopies_; // array, stride
  // Per-thread arrays: values of the part before, the inner loop's carried phis, and the
  // values it leaves with (a carried phi's next value shares the phi's array).
  llvm::MapVector<llvm::Instruction *, llvm::AllocaInst *> beforeSlots_;
  llvm::MapVector<llvm::PHINode *, llvm::AllocaInst *> carriedSlots_;
  llvm::DenseMap<llvm::Value *, llvm::AllocaInst *> leavingSlots_;
  std::vector<llvm::Value *> storedLeaving_;
  llvm::Value *least_ = nullptr;
  llvm::Value *greatest_ = nullptr;
};

} // namespace

llvm::PreservedAnalyses InterchangeThreadLoopsPass::run(llvm::Function &function,
                                                        llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  // A test right after the inner loop (a checked index) goes to a block of its own, so that
  // the loop's exit only joins the way past it.
  bool split = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (llvm::findStringMetadataForLoop(loop, kThreadLoop) && loop->getSubLoops().size() == 1)
      if (llvm::BasicBlock *exit = loop->getSubLoops().front()->getExitBlock())
        if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(exit->getTerminator());
            branch && branch->isConditional()) {
          llvm::SplitBlock(exit, branch, &dominators, &loops);
          split = true;
        }
  // Every nest is recognised before any is rewritten: the rewrites leave the analyses behind.
  std::vector<ThreadLoopNest> nests;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!llvm::findStringMetadataForLoop(loop, kThreadLoop))
      continue;
    ThreadLoopNest nest;
    if (analyse(*loop, dominators, evolution, nest))
      nests.push_back(std::move(nest));
  }
  if (nests.empty()) {
    if (!split)
      return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses preserved;
    preserved.preserve<llvm::DominatorTreeAnalysis>();
    preserved.preserve<llvm::LoopAnalysis>();
    return preserved;
  }
  for (ThreadLoopNest &nest : nests)
    Interchange(nest).run();
  return llvm::PreservedAnalyses::none();
}

} // namespace kaji::codegen
