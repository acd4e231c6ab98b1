#include "SignedBoolToFloat.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace kaji::codegen {

void rewriteSignedBoolToFloat(llvm::Module &module) {
  std::vector<llvm::SIToFPInst *> casts;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *cast = llvm::dyn_cast<llvm::SIToFPInst>(&instruction);
          cast && cast->getSrcTy()->isIntOrIntVectorTy(1))
        casts.push_back(cast);
  for (llvm::SIToFPInst *cast : casts) {
    llvm::IRBuilder<> builder(cast);
    llvm::Type *type = cast->getType();
    llvm::Value *value = builder.CreateSelect(
        cast->getOperand(0), llvm::ConstantFP::get(type, -1.0), llvm::ConstantFP::get(type, 0.0));
    cast->replaceAllUsesWith(value);
    cast->eraseFromParent();
  }
}

} // namespace kaji::codegen
