#include "SelectCopysign.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace kaji::codegen {

void selectCopysign(llvm::Module &module) {
  std::vector<llvm::Function *> intrinsics;
  for (llvm::Function &function : module)
    if (function.getIntrinsicID() == llvm::Intrinsic::copysign)
      intrinsics.push_back(&function);
  for (llvm::Function *intrinsic : intrinsics) {
    llvm::Type *type = intrinsic->getReturnType();
    if (!type->isFloatTy() && !type->isDoubleTy())
      continue;
    bool single = type->isFloatTy();
    // PTX's `copysign d, a, b` gives b's magnitude with a's sign: copysign(mag, sign) reads
    // its operands in the other order.
    llvm::InlineAsm *instruction =
        llvm::InlineAsm::get(llvm::FunctionType::get(type, {type, type}, false),
                             single ? "copysign.f32 $0, $2, $1;" : "copysign.f64 $0, $2, $1;",
                             single ? "=f,f,f" : "=d,d,d", /*hasSideEffects=*/false);
    for (llvm::User *user : llvm::make_early_inc_range(intrinsic->users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != intrinsic)
        continue;
      auto *replacement = llvm::CallInst::Create(instruction->getFunctionType(), instruction,
                                                 {call->getArgOperand(0), call->getArgOperand(1)},
                                                 "copysign", call->getIterator());
      replacement->setDoesNotAccessMemory();
      replacement->setDoesNotThrow();
      call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
    }
  }
}

} // namespace kaji::codegen
