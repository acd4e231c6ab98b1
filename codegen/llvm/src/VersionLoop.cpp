#include "VersionLoop.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace kaji::codegen {

llvm::Loop &versionLoop(llvm::Loop &loop, llvm::Value *condition, const char *suffix,
                        llvm::LoopInfo &loops, llvm::DominatorTree &dominators) {
  llvm::BasicBlock *choice = loop.getLoopPreheader();
  llvm::BasicBlock *preheader = llvm::SplitBlock(choice, choice->getTerminator(), &dominators,
                                                 &loops, nullptr, choice->getName() + ".versioned");
  llvm::ValueToValueMapTy copyValues;
  llvm::SmallVector<llvm::BasicBlock *> copyBlocks;
  llvm::Loop *copy = llvm::cloneLoopWithPreheader(preheader, choice, &loop, copyValues, suffix,
                                                  &loops, &dominators, copyBlocks);
  llvm::remapInstructionsInBlocks(copyBlocks, copyValues);
  choice->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(preheader, copy->getLoopPreheader(), condition, choice);

  llvm::SmallVector<llvm::BasicBlock *> exits;
  loop.getUniqueExitBlocks(exits);
  for (llvm::BasicBlock *exit : exits) {
    for (llvm::PHINode &phi : exit->phis()) {
      unsigned incoming = phi.getNumIncomingValues();
      for (unsigned i = 0; i < incoming; ++i) {
        llvm::BasicBlock *from = phi.getIncomingBlock(i);
        if (!loop.contains(from))
          continue;
        llvm::Value *value = phi.getIncomingValue(i);
        auto mapped = copyValues.find(value);
        phi.addIncoming(mapped != copyValues.end() ? static_cast<llvm::Value *>(mapped->second)
                                                   : value,
                        llvm::cast<llvm::BasicBlock>(copyValues[from]));
      }
    }
    dominators.changeImmediateDominator(exit, choice);
  }
  return *copy;
}

llvm::PreservedAnalyses preservedByVersioning(bool versioned) {
  if (!versioned)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserve<llvm::LoopAnalysis>();
  preserved.preserve<llvm::DominatorTreeAnalysis>();
  return preserved;
}

} // namespace kaji::codegen
