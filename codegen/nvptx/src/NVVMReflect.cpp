#include "NVVMReflect.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {

void answerReflect(llvm::Module &module, llvm::StringRef query, int answer) {
  llvm::Function *reflect = module.getFunction("__nvvm_reflect");
  if (!reflect)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(reflect->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    auto *text =
        call ? llvm::dyn_cast<llvm::GlobalVariable>(call->getArgOperand(0)->stripPointerCasts())
             : nullptr;
    auto *bytes = text && text->hasInitializer()
                      ? llvm::dyn_cast<llvm::ConstantDataArray>(text->getInitializer())
                      : nullptr;
    if (!bytes || !bytes->isCString() || bytes->getAsCString() != query)
      continue;
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), answer));
    call->eraseFromParent();
  }
}

} // namespace kaji::codegen
