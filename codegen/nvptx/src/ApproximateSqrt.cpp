#include "ApproximateSqrt.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {

void approximateFloat32Sqrt(llvm::Module &module) {
  for (llvm::Function &function : module) {
    bool flushesDenormals = function.getFnAttribute("denormal-fp-math-f32").getValueAsString() ==
                            "preserve-sign,preserve-sign";
    for (llvm::Instruction &instruction :
         llvm::make_early_inc_range(llvm::instructions(function))) {
      auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
      if (!call || call->getIntrinsicID() != llvm::Intrinsic::sqrt ||
          !call->getType()->isFloatTy() || !call->hasApproxFunc())
        continue;
      llvm::Function *approximate = llvm::Intrinsic::getDeclaration(
          &module, flushesDenormals ? llvm::Intrinsic::nvvm_sqrt_approx_ftz_f
                                    : llvm::Intrinsic::nvvm_sqrt_approx_f);
      auto *replacement = llvm::CallInst::Create(approximate, {call->getArgOperand(0)},
                                                 "sqrt.approx", call->getIterator());
      call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
    }
  }
}

} // namespace kaji::codegen
