// Fast math's float32 square root. LLVM 19's NVPTX backend selects sqrt.approx for llvm.sqrt.f32
// only when its TargetMachine was made for unsafe math, whatever the call's fast-math flags, so
// a kernel compiled with fastmath=True kept the correctly rounded sqrt.rn, where nvcc's
// --use_fast_math and Numba's fastmath=True give sqrt.approx.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

// Makes each float32 llvm.sqrt call of `module` that may approximate (its `afn` flag) the
// hardware's approximate root, flushing denormals where its function does
// ("denormal-fp-math-f32"="preserve-sign").
void approximateFloat32Sqrt(llvm::Module &module);

} // namespace kaji::codegen
