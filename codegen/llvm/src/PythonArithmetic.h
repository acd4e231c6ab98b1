// Integer and floating-point arithmetic with the semantics kaji IR gives them (Python's,
// made total): no operation here has undefined behaviour or produces poison.
#pragma once

#include "kaji/codegen/llvm/Target.h"

#include <llvm/IR/IRBuilder.h>

namespace kaji::codegen {

// Truncating division; x / 0 == 0, INT_MIN / -1 wraps to INT_MIN.
llvm::Value *emitIntDiv(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs, bool isSigned);
// Python //: rounds toward negative infinity; x // 0 == 0.
llvm::Value *emitIntFloorDiv(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs,
                             bool isSigned);
// Python %: the result has the divisor's sign; x % 0 == 0.
llvm::Value *emitIntMod(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs, bool isSigned);
// Python // and % on floats (CPython's float_divmod), built on fmod.
llvm::Value *emitFloatFloorDiv(llvm::IRBuilderBase &b, const Target &target, llvm::Value *lhs,
                               llvm::Value *rhs);
llvm::Value *emitFloatMod(llvm::IRBuilderBase &b, const Target &target, llvm::Value *lhs,
                          llvm::Value *rhs);
// Shifts by an amount >= the width (or negative) give 0; Shr saturates on signed values.
llvm::Value *emitShl(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs);
llvm::Value *emitShr(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs, bool isSigned);
// base ** exponent by repeated squaring (emits a loop); a negative exponent gives 0 unless
// |base| == 1.
llvm::Value *emitIntPow(llvm::IRBuilderBase &b, llvm::Value *base, llvm::Value *exponent,
                        bool isSigned);

} // namespace kaji::codegen
