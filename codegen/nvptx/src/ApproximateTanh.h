// libdevice's __nv_fast_tanhf (fast-math tanh on float32, cuda.libdevice.fast_tanhf) asks
// __nvvm_reflect("__CUDA_ARCH") and calls llvm.nvvm.tanh.approx.f32 on sm_75 and newer, an
// intrinsic LLVM 19's NVPTX backend cannot select. This gives it the instruction itself.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

// Answers the architecture query of each function of `module` that calls the intrinsic with
// `smVersion` (90 for sm_90), drops the branch that answer rules out, and makes each call
// left a `tanh.approx.f32` in inline assembly. Run after libdevice is linked.
void selectApproximateTanh(llvm::Module &module, unsigned smVersion);

} // namespace kaji::codegen
