// LLVM 19's NVPTX backend lowers `sitofp i1` as if it were `uitofp`: `selp.u32 1, 0` then
// `cvt.rn.f64.s32`, so a true bool converted as signed gives +1.0 instead of -1.0 (an H100
// stored 2**31 - 1 for `2.0**31 - (-(a <= b))`; llc-19 shows the same for the bare cast).
// InstCombine forms it from kaji's bool → int, negate, int → float, so the rewrite runs on the
// optimised module, just before the backend: each such cast becomes a select of -1.0 and 0.0.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

void rewriteSignedBoolToFloat(llvm::Module &module);

} // namespace kaji::codegen
