#include "ApproximateTanh.h"

#include "NVVMReflect.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

namespace kaji::codegen {
namespace {

constexpr const char *kIntrinsic = "llvm.nvvm.tanh.approx.f32";

// Folds the instructions of `function` whose operands are constants (the answered query's
// comparison), then its constant branches, and removes the blocks no longer reached: at -O0
// nothing else would, and the intrinsic in the branch an older GPU takes must go.
void foldAnsweredBranches(llvm::Function &function) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  for (llvm::Instruction &instruction : llvm::make_early_inc_range(llvm::instructions(function)))
    if (llvm::Constant *folded = llvm::ConstantFoldInstruction(&instruction, layout)) {
      instruction.replaceAllUsesWith(folded);
      instruction.eraseFromParent();
    }
  for (llvm::BasicBlock &block : function)
    llvm::ConstantFoldTerminator(&block);
  llvm::removeUnreachableBlocks(function);
}

} // namespace

void selectApproximateTanh(llvm::Module &module, unsigned smVersion) {
  llvm::Function *intrinsic = module.getFunction(kIntrinsic);
  if (!intrinsic || intrinsic->use_empty())
    return;
  answerReflect(module, "__CUDA_ARCH", int(smVersion * 10));
  llvm::SmallPtrSet<llvm::Function *, 2> callers;
  for (llvm::User *user : intrinsic->users())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
      callers.insert(call->getFunction());
  for (llvm::Function *caller : callers)
    foldAnsweredBranches(*caller);

  llvm::Type *floatType = intrinsic->getReturnType();
  auto *instruction = llvm::InlineAsm::get(llvm::FunctionType::get(floatType, {floatType}, false),
                                           "tanh.approx.f32 $0, $1;", "=f,f",
                                           /*hasSideEffects=*/false);
  for (llvm::User *user : llvm::make_early_inc_range(intrinsic->users())) {
    auto *call = llvm::cast<llvm::CallInst>(user);
    auto *replacement =
        llvm::CallInst::Create(instruction->getFunctionType(), instruction,
                               {call->getArgOperand(0)}, "tanh.approx", call->getIterator());
    replacement->setDoesNotAccessMemory();
    replacement->setDoesNotThrow();
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  intrinsic->eraseFromParent();
}

} // namespace kaji::codegen
