#include "BFloat16WithoutFlushToZero.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <algorithm>

namespace kaji::codegen {
namespace {

bool isBFloat16(const llvm::Value *value) {
  return value->getType()->getScalarType()->isBFloatTy();
}

// Arithmetic, comparisons and conversions, whose PTX forms have an .ftz variant for float32
// and float16.
bool hasBFloat16FloatOperation(llvm::Function &function) {
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    bool floatOperation = llvm::isa<llvm::FPMathOperator>(instruction) ||
                          llvm::isa<llvm::FCmpInst>(instruction) ||
                          llvm::isa<llvm::CastInst>(instruction);
    if (floatOperation && (isBFloat16(&instruction) ||
                           std::any_of(instruction.op_begin(), instruction.op_end(),
                                       [](const llvm::Use &use) { return isBFloat16(use.get()); })))
      return true;
  }
  return false;
}

} // namespace

void keepBFloat16OffFlushToZero(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (function.hasFnAttribute("denormal-fp-math-f32") && !function.isDeclaration() &&
        hasBFloat16FloatOperation(function))
      function.removeFnAttr("denormal-fp-math-f32");
}

} // namespace kaji::codegen
