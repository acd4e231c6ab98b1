// LLVM 19's NVPTX backend picks the `.ftz` form of an instruction from the function's float32
// denormal mode, for bfloat16 instructions too: under fast math ("denormal-fp-math-f32" =
// preserve-sign) it emits `add.ftz.bf16`, `fma.rn.ftz.bf16`, `setp.lt.ftz.bf16`, which PTX does
// not have (ptxas rejects them for sm_80 to sm_90a), and `cvt.ftz.f32.bf16`, which needs sm_90
// (the suite-wide ptxas sweep found it on sm_86 and sm_89), so the kernel cannot load.
// Functions with bfloat16 arithmetic, comparisons or conversions keep float32 denormals instead:
// fast math allows flushing, it does not require it. Runs on the optimised module, just before the
// backend, when inlining is done.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

void keepBFloat16OffFlushToZero(llvm::Module &module);

} // namespace kaji::codegen
