#include "NarrowLoopCounters.h"
#include "VersionLoop.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <cstdint>
#include <optional>

namespace kaji::codegen {

namespace {

constexpr uint64_t kInt32Max = INT32_MAX;

// A loop's i64 counter and what narrowing it needs.
struct Counter {
  llvm::PHINode *phi;                           // {start, +, 1} in the header
  llvm::Instruction *next;                      // phi + 1, the latch's incoming value
  llvm::Value *start;                           // the preheader's incoming value
  const llvm::SCEV *latchExitCount;             // backedges taken before the latch exits
  llvm::SmallVector<llvm::ICmpInst *> compares; // of phi or next with a loop-invariant value
};

// `phi` + 1 as the latch gives it back, or null.
llvm::Instruction *incrementOf(llvm::PHINode &phi, const llvm::Loop &loop) {
  auto *next = llvm::dyn_cast<llvm::Instruction>(phi.getIncomingValueForBlock(loop.getLoopLatch()));
  if (!next || next->getOpcode() != llvm::Instruction::Add || !loop.contains(next))
    return nullptr;
  auto *one = llvm::dyn_cast<llvm::ConstantInt>(next->getOperand(1));
  return next->getOperand(0) == &phi && one && one->isOne() ? next : nullptr;
}

// The compares of `value` with a loop-invariant value in the loop. Its users after the loop
// take it through the exit blocks' LCSSA phis (narrow() forms them first).
void collectCompares(llvm::Value &value, const llvm::Loop &loop,
                     llvm::SmallVectorImpl<llvm::ICmpInst *> &compares) {
  for (llvm::User *user : value.users())
    if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(user); compare && loop.contains(compare)) {
      llvm::Value *other = compare->getOperand(compare->getOperand(0) == &value ? 1 : 0);
      if (loop.isLoopInvariant(other))
        compares.push_back(compare);
    }
}

// Whether `phi`, of the loop's header, is an i64 that steps by one each trip.
bool isUnitStepCounter(llvm::PHINode &phi, const llvm::Loop &loop,
                       llvm::ScalarEvolution &evolution) {
  if (!phi.getType()->isIntegerTy(64))
    return false;
  auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(evolution.getSCEV(&phi));
  if (!recurrence || recurrence->getLoop() != &loop || !recurrence->isAffine())
    return false;
  auto *step = llvm::dyn_cast<llvm::SCEVConstant>(recurrence->getStepRecurrence(evolution));
  return step && step->getValue()->isOne();
}

bool hasUnitStepCounter(const llvm::Loop &loop, llvm::ScalarEvolution &evolution) {
  return llvm::any_of(loop.getHeader()->phis(),
                      [&](llvm::PHINode &phi) { return isUnitStepCounter(phi, loop, evolution); });
}

std::optional<Counter> counterOf(llvm::Loop &loop, llvm::ScalarEvolution &evolution) {
  llvm::BasicBlock *latch = loop.getLoopLatch();
  if (!loop.getLoopPreheader() || !latch || !loop.isLoopExiting(latch) || !loop.hasDedicatedExits())
    return std::nullopt;
  const llvm::SCEV *exitCount = evolution.getExitCount(&loop, latch);
  llvm::SCEVExpander expander(evolution, loop.getHeader()->getModule()->getDataLayout(), "narrow");
  if (llvm::isa<llvm::SCEVCouldNotCompute>(exitCount) || !exitCount->getType()->isIntegerTy(64) ||
      !expander.isSafeToExpandAt(exitCount, loop.getLoopPreheader()->getTerminator()))
    return std::nullopt;
  for (llvm::PHINode &phi : loop.getHeader()->phis()) {
    if (!isUnitStepCounter(phi, loop, evolution))
      continue;
    llvm::Instruction *next = incrementOf(phi, loop);
    if (!next)
      continue;
    Counter counter{
        &phi, next, phi.getIncomingValueForBlock(loop.getLoopPreheader()), exitCount, {}};
    collectCompares(phi, loop, counter.compares);
    collectCompares(*next, loop, counter.compares);
    if (!counter.compares.empty())
      return counter;
  }
  return std::nullopt;
}

// `phi` (an exit block's) as an i32 phi where every user truncates it to 32 bits: its values
// from the narrowed loop's counter are the narrow counter's, the others truncated where they
// come from.
void narrowIfOnlyTruncated(llvm::PHINode &phi, const Counter &counter, llvm::Value *narrowCounter,
                           llvm::Value *narrowNext, const llvm::Loop &loop) {
  llvm::Type *i32 = llvm::Type::getInt32Ty(phi.getContext());
  if (phi.use_empty() || !llvm::all_of(phi.users(), [&](llvm::User *user) {
        return llvm::isa<llvm::TruncInst>(user) && user->getType() == i32;
      }))
    return;
  llvm::PHINode *narrow =
      llvm::PHINode::Create(i32, phi.getNumIncomingValues(), phi.getName() + ".narrow");
  narrow->insertBefore(phi.getIterator());
  for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
    llvm::Value *value = phi.getIncomingValue(i);
    llvm::BasicBlock *from = phi.getIncomingBlock(i);
    bool fromLoop = loop.contains(from);
    narrow->addIncoming(fromLoop && value == counter.phi ? narrowCounter
                        : fromLoop && value == counter.next
                            ? narrowNext
                            : llvm::IRBuilder<>(from->getTerminator()).CreateTrunc(value, i32),
                        from);
  }
  for (llvm::User *user : llvm::make_early_inc_range(phi.users())) {
    user->replaceAllUsesWith(narrow);
    llvm::cast<llvm::Instruction>(user)->eraseFromParent();
  }
  phi.eraseFromParent();
}

// Versions `loop` on whether `counter` fits in 31 bits and narrows it in the copy that runs
// when it does (the loop itself); the other copy, run otherwise, is the loop as it was.
void narrow(llvm::Loop &loop, const Counter &counter, llvm::LoopInfo &loops,
            llvm::DominatorTree &dominators, llvm::ScalarEvolution &evolution) {
  llvm::BasicBlock *check = loop.getLoopPreheader();
  llvm::IRBuilder<> builder(check->getTerminator());
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Type *i32 = builder.getInt32Ty();

  // Every value the counter takes is at least start and at most start + exit count + 1; every
  // value it is compared with in [0, 2^31) then compares alike in 32 bits, signed or not.
  llvm::SCEVExpander expander(evolution, check->getModule()->getDataLayout(), "narrow");
  llvm::Value *exitCount =
      expander.expandCodeFor(counter.latchExitCount, i64, check->getTerminator());
  llvm::Value *lastStart = builder.getInt64(kInt32Max - 1);
  llvm::Value *fits = builder.CreateAnd(
      builder.CreateICmpULE(counter.start, lastStart),
      builder.CreateICmpULE(exitCount, builder.CreateSub(lastStart, counter.start)));
  llvm::SetVector<llvm::Value *> bounds;
  for (llvm::ICmpInst *compare : counter.compares)
    for (llvm::Value *operand : compare->operands())
      if (operand != counter.phi && operand != counter.next)
        bounds.insert(operand);
  for (llvm::Value *bound : bounds)
    fits = builder.CreateAnd(fits, builder.CreateICmpULE(bound, builder.getInt64(kInt32Max)));

  versionLoop(loop, fits, ".wide", loops, dominators);
  llvm::BasicBlock *narrowPreheader = loop.getLoopPreheader();
  llvm::SmallVector<llvm::BasicBlock *> exits;
  loop.getUniqueExitBlocks(exits);

  // The narrow counter, its wide values where the loop needs them, and its compares.
  llvm::IRBuilder<> header(loop.getHeader(), loop.getHeader()->getFirstInsertionPt());
  llvm::PHINode *narrowCounter = llvm::PHINode::Create(i32, 2, "counter32");
  narrowCounter->insertBefore(loop.getHeader()->begin());
  llvm::Value *counterWide = header.CreateZExt(narrowCounter, i64);
  llvm::IRBuilder<> atNext(counter.next);
  llvm::Value *narrowNext = atNext.CreateNUWAdd(narrowCounter, atNext.getInt32(1));
  llvm::cast<llvm::BinaryOperator>(narrowNext)->setHasNoSignedWrap();
  llvm::Value *nextWide = atNext.CreateZExt(narrowNext, i64);
  llvm::IRBuilder<> inPreheader(narrowPreheader->getTerminator());
  narrowCounter->addIncoming(inPreheader.CreateTrunc(counter.start, i32), narrowPreheader);
  narrowCounter->addIncoming(narrowNext, loop.getLoopLatch());
  for (llvm::ICmpInst *compare : counter.compares)
    for (unsigned i = 0; i < 2; ++i) {
      llvm::Value *operand = compare->getOperand(i);
      compare->setOperand(i, operand == counter.phi    ? narrowCounter
                             : operand == counter.next ? narrowNext
                                                       : inPreheader.CreateTrunc(operand, i32));
    }
  // An exit value used only as 32 bits (a count stored into an int32 array) becomes a 32-bit
  // phi: else the backend's loop strength reduction, finding the counter's zero extension
  // used after the loop, would count in 64 bits again to give it.
  for (llvm::BasicBlock *exit : exits)
    for (llvm::PHINode &phi : llvm::make_early_inc_range(exit->phis()))
      narrowIfOnlyTruncated(phi, counter, narrowCounter, narrowNext, loop);
  counter.phi->replaceAllUsesWith(counterWide);
  counter.next->replaceAllUsesWith(nextWide);
  counter.phi->eraseFromParent();
  counter.next->eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses NarrowLoopCountersPass::run(llvm::Function &function,
                                                    llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  llvm::SmallVector<std::pair<llvm::Loop *, Counter>> narrowed;
  // Only a loop with an i64 counter is put in simplified form, and only one that will be
  // narrowed in LCSSA form: every other loop stays as the pipeline left it.
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || !hasUnitStepCounter(*loop, evolution))
      continue;
    llvm::simplifyLoop(loop, &dominators, &loops, &evolution, nullptr, nullptr, false);
    if (counterOf(*loop, evolution)) {
      llvm::formLCSSA(*loop, dominators, &loops, &evolution);
      if (std::optional<Counter> counter = counterOf(*loop, evolution))
        narrowed.emplace_back(loop, *counter);
    }
  }
  for (auto &[loop, counter] : narrowed)
    narrow(*loop, counter, loops, dominators, evolution);
  return preservedByVersioning(!narrowed.empty());
}

} // namespace kaji::codegen
