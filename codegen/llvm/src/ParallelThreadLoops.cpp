#include "ParallelThreadLoops.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <vector>

namespace kaji::codegen {
namespace {

bool isAtomicOrVolatile(const llvm::Instruction &instruction) {
  if (instruction.isAtomic())
    return true;
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
    return load->isVolatile();
  if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction))
    return store->isVolatile();
  return false;
}

// Whether `instruction` may touch one of the function's allocas: a thread's own memory (its
// local arrays, the record of an index error it reports), which every thread of the loop
// reuses in turn, so iterations do depend on each other through it.
bool touchesOwnMemory(const llvm::Instruction &instruction) {
  if (instruction.isLifetimeStartOrEnd() || llvm::isa<llvm::NoAliasScopeDeclInst>(instruction))
    return false;
  auto fromAlloca = [](const llvm::Value *pointer) {
    llvm::SmallVector<const llvm::Value *, 4> objects;
    llvm::getUnderlyingObjects(pointer, objects);
    return llvm::any_of(
        objects, [](const llvm::Value *object) { return llvm::isa<llvm::AllocaInst>(object); });
  };
  if (const llvm::Value *pointer = llvm::getLoadStorePointerOperand(&instruction))
    return fromAlloca(pointer);
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
    return llvm::any_of(call->args(), [&](const llvm::Use &argument) {
      return argument->getType()->isPointerTy() && fromAlloca(argument);
    });
  return true;
}

// Puts the accesses of `loop` to memory the threads share in a new access group that the
// loop's metadata names as parallel; false (and nothing changed) when the loop has an atomic
// or volatile access. The loop is parallel for the vectoriser when no access is left out: when
// it touches no thread's own memory (the checks decided, the index-error reports are gone).
bool markParallel(llvm::Loop &loop) {
  std::vector<llvm::Instruction *> accesses;
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &instruction : *block) {
      if (!instruction.mayReadOrWriteMemory())
        continue;
      if (isAtomicOrVolatile(instruction))
        return false;
      if (!touchesOwnMemory(instruction))
        accesses.push_back(&instruction);
    }
  llvm::LLVMContext &context = loop.getHeader()->getContext();
  llvm::MDNode *group = llvm::MDNode::getDistinct(context, {});
  for (llvm::Instruction *access : accesses)
    access->setMetadata(
        llvm::LLVMContext::MD_access_group,
        llvm::uniteAccessGroups(access->getMetadata(llvm::LLVMContext::MD_access_group), group));
  llvm::MDNode *parallel = llvm::MDNode::get(
      context, {llvm::MDString::get(context, "llvm.loop.parallel_accesses"), group});
  llvm::MDNode *id =
      llvm::makePostTransformationMetadata(context, loop.getLoopID(), {}, {parallel});
  loop.setLoopID(id);
  return true;
}

} // namespace

llvm::PreservedAnalyses ParallelThreadLoopsPass::run(llvm::Function &function,
                                                     llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  bool changed = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (llvm::findStringMetadataForLoop(loop, kThreadLoop))
      changed |= markParallel(*loop);
  if (!changed)
    return llvm::PreservedAnalyses::all();
  // Metadata only: the IR's instructions and control flow are as they were.
  llvm::PreservedAnalyses kept;
  kept.preserveSet<llvm::CFGAnalyses>();
  kept.preserve<llvm::LoopAnalysis>();
  return kept;
}

} // namespace kaji::codegen
