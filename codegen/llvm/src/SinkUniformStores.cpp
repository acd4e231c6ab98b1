#include "SinkUniformStores.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <vector>

namespace kaji::codegen {
namespace {

// Moves the loop's uniform stores of loop-invariant values to loop-invariant places to each of
// its exits; returns whether it moved one.
bool sinkUniformStores(llvm::Loop &loop) {
  llvm::SmallVector<llvm::BasicBlock *, 4> exits;
  loop.getUniqueExitBlocks(exits);
  if (exits.empty() || !loop.hasDedicatedExits())
    return false;
  std::vector<llvm::StoreInst *> stores;
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &instruction : *block)
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
        if (store->getMetadata(kUniformStore) && store->isSimple() &&
            loop.isLoopInvariant(store->getValueOperand()) &&
            loop.isLoopInvariant(store->getPointerOperand()))
          stores.push_back(store);
  for (llvm::StoreInst *store : stores) {
    for (llvm::BasicBlock *exit : exits)
      store->clone()->insertInto(exit, exit->getFirstInsertionPt());
    store->eraseFromParent();
  }
  return !stores.empty();
}

} // namespace

llvm::PreservedAnalyses SinkUniformStoresPass::run(llvm::Function &function,
                                                   llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  bool changed = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (llvm::findStringMetadataForLoop(loop, kThreadLoop))
      changed |= sinkUniformStores(*loop);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace kaji::codegen
