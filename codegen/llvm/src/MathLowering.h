// Lowering of the Math op (the functions of ir/MathFunctions.def) and of float powers: as LLVM
// intrinsics where every target selects them natively, else as calls to the target's math
// library.
#pragma once

#include "kaji/codegen/llvm/Target.h"
#include "kaji/ir/MathFunctions.h"
#include "kaji/ir/OperationAttributes.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/IRBuilder.h>

namespace kaji::codegen {

// The math function `function` (MathFunctions.def) applied to `args`, which all have one
// floating-point type; the result has that type too (i1 for predicates). half and bfloat
// compute in float.
llvm::Value *emitMath(llvm::IRBuilderBase &builder, const Target &target,
                      ir::MathFunctionKind function, llvm::ArrayRef<llvm::Value *> args);

// x ** exponent of one floating-point type: exact for the exponents 0, 1, 2 and -1, else the
// target's pow. half and bfloat compute in float.
llvm::Value *emitFloatPower(llvm::IRBuilderBase &builder, const Target &target, llvm::Value *x,
                            llvm::Value *exponent);

// The bit function (popc, brev, clz or ffs, as CUDA's __popc, __brev, __clz, __ffs) of the
// integer `x`, in x's type; ffs is 1 + the index of the lowest set bit, 0 when x is 0.
llvm::Value *emitBitFunction(llvm::IRBuilderBase &builder, ir::BitFunction function,
                             llvm::Value *x);

} // namespace kaji::codegen
