// ptxas (CUDA 13.0, sm_90 and others) miscompiles 16-bit negation: for `neg.s16` and
// `abs.s16` it computes -x or |x| in a 32-bit register from the sign-extended x and keeps
// that as the 16-bit result without sign-extending it again, so -(-32768) and |-32768| reach
// whatever widens, compares, shifts or divides them as +32768 instead of wrapping to -32768
// (an H100 stored 32768 for `-x` of int16 -32768 widened to int64; nvcc's own PTX for
// `(long long)(short)-x` is compiled the same way). It does sign-extend after a `cvt.u16.u32`,
// so a 32-bit neg/abs of the sign-extended value, narrowed by that conversion, is compiled
// right (checked in the SASS: the result passes through `PRMT ..., 0x9910` before use).
//
// LLVM's NVPTX backend narrows such a sequence written in LLVM IR back to neg.s16, and
// creates neg.s16 of its own (`x * -2` becomes `-(x << 1)`), so the rewrite is made on the
// PTX it prints, where every 16-bit negation is visible.
#pragma once

#include <string>

namespace kaji::codegen {

// `ptx` with every `neg.s16 D, S;` and `abs.s16 D, S;` replaced by the 32-bit form above, in a
// scope of its own declaring its 32-bit register.
std::string rewriteNarrowNegation(const std::string &ptx);

} // namespace kaji::codegen
