#include "GPULoopUnrollPolicy.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

namespace kaji::codegen {

namespace {

unsigned bodyInstructionCount(const llvm::Loop &loop) {
  unsigned count = 0;
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &instruction : *block)
      if (!llvm::isa<llvm::PHINode>(instruction) && !instruction.isDebugOrPseudoInst())
        ++count;
  return count;
}

bool hasUnrollMetadata(const llvm::Loop &loop) {
  return llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.disable") ||
         llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.full") ||
         llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.count");
}

bool callsAFunctionOrConverges(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &instruction : *block)
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (!llvm::isa<llvm::IntrinsicInst>(call) || call->isConvergent())
          return true;
  return false;
}

// A division by a run-time value: a grid-stride loop's trip count, (n - start) / gridsize.
// The remainder loop needs the trip count before the loop starts, and a 64-bit division on
// the GPU is a long instruction sequence, more than unrolling saves on a loop that may run a
// few times per thread.
bool dividesByARuntimeValue(const llvm::SCEV *expression) {
  return llvm::SCEVExprContains(expression, [](const llvm::SCEV *part) {
    const auto *division = llvm::dyn_cast<llvm::SCEVUDivExpr>(part);
    return division && !llvm::isa<llvm::SCEVConstant>(division->getRHS());
  });
}

// The shape LLVM's runtime unroller splits into an unrolled loop and a remainder, with a trip
// count computed cheaply before the loop. A loop that also leaves from elsewhere (a `while`
// with a `break`) would keep an exit test in every copy, which saves nothing.
bool runtimeUnrollable(const llvm::Loop &loop, llvm::ScalarEvolution &evolution) {
  const llvm::BasicBlock *exiting = loop.getExitingBlock();
  if (!loop.isLoopSimplifyForm() || !exiting || exiting != loop.getLoopLatch())
    return false;
  const llvm::SCEV *backedges = evolution.getBackedgeTakenCount(&loop);
  return !llvm::isa<llvm::SCEVCouldNotCompute>(backedges) && !dividesByARuntimeValue(backedges);
}

bool fitsFullUnroll(unsigned tripCount, unsigned bodySize) {
  return tripCount >= 2 && tripCount <= GPULoopUnrollPolicyPass::kMaxFullTripCount &&
         uint64_t(tripCount) * bodySize <= GPULoopUnrollPolicyPass::kMaxFullyUnrolledInstructions;
}

bool fitsRuntimeUnroll(const llvm::Loop &loop, unsigned bodySize) {
  return bodySize >= GPULoopUnrollPolicyPass::kMinRuntimeBodyInstructions &&
         bodySize <= GPULoopUnrollPolicyPass::kMaxRuntimeBodyInstructions &&
         !callsAFunctionOrConverges(loop);
}

} // namespace

llvm::PreservedAnalyses GPULoopUnrollPolicyPass::run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                                                     llvm::LoopStandardAnalysisResults &results,
                                                     llvm::LPMUpdater &) {
  if (!loop.isInnermost() || hasUnrollMetadata(loop))
    return llvm::PreservedAnalyses::all();
  unsigned bodySize = bodyInstructionCount(loop);
  unsigned tripCount = results.SE.getSmallConstantTripCount(&loop);
  if (tripCount != 0) {
    if (fitsFullUnroll(tripCount, bodySize))
      llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.full");
  } else if (runtimeUnrollable(loop, results.SE) && fitsRuntimeUnroll(loop, bodySize)) {
    llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.count", kRuntimeUnrollCount);
  }
  // Only the loop's metadata changed: every analysis still holds.
  return llvm::PreservedAnalyses::all();
}

} // namespace kaji::codegen
