#include "SmallLoopFullUnroll.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Instructions.h>
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

} // namespace

llvm::PreservedAnalyses SmallLoopFullUnrollPass::run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                                                     llvm::LoopStandardAnalysisResults &results,
                                                     llvm::LPMUpdater &) {
  if (!loop.isInnermost() || hasUnrollMetadata(loop))
    return llvm::PreservedAnalyses::all();
  unsigned tripCount = results.SE.getSmallConstantTripCount(&loop);
  if (tripCount < 2 || tripCount > kMaxTripCount ||
      uint64_t(tripCount) * bodyInstructionCount(loop) > kMaxUnrolledInstructions)
    return llvm::PreservedAnalyses::all();
  llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.full");
  // Only the loop's metadata changed: every analysis still holds.
  return llvm::PreservedAnalyses::all();
}

} // namespace kaji::codegen
