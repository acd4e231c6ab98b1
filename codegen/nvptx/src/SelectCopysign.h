// LLVM 19's NVPTX backend has no pattern for llvm.copysign: it expands each into six
// instructions (abs, neg, a shift and a mask of the sign's bits, a compare, a select), where
// PTX has `copysign`. libdevice's float32 erf, erfc, atan, asin and others call it on every
// path, so float32 Black-Scholes (four erf) paid some twenty instructions a thread that nvcc's
// and NVRTC's code does not.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

// Makes each scalar float32 or float64 llvm.copysign call of `module` a PTX `copysign` in
// inline assembly. Run after the optimisation pipeline, which folds and combines the
// intrinsic (constant operands, fabs of it) but not inline assembly.
void selectCopysign(llvm::Module &module);

} // namespace kaji::codegen
