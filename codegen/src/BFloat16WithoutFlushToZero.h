// LLVM 19's NVPTX backend picks the `.ftz` form of an instruction from the function's float32
// denormal mode, for bfloat16 instructions too: under fast math ("denormal-fp-math-f32" =
// preserve-sign) it emits `add.ftz.bf16`, `fma.rn.ftz.bf16`, `setp.lt.ftz.bf16`, which PTX does
// not have (ptxas rejects them for sm_80 to sm_90a), so the kernel cannot load. Functions with
// bfloat16 arithmetic keep float32 denormals instead: fast math allows flushing, it does not
// require it. Runs on the optimised module, just before the backend, when inlining is done.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

void keepBFloat16OffFlushToZero(llvm::Module &module);

} // namespace kaji::codegen
