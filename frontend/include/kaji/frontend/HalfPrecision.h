// Numba's `cuda.fp16` module: float16 arithmetic, math and comparisons by name
// (HalfPrecisionCalls.cpp).
#pragma once

#include <string_view>
#include <vector>

namespace kaji::frontend {

// The names of cuda.fp16's functions, in the order Numba documents them.
const std::vector<std::string_view> &halfPrecisionFunctionNames();
// cuda.bf16's: the same, and Numba's conversions bfloat16_to_float32 and
// bfloat16_to_<integer>_<rounding> (rd rn ru rz; int8 and uint8 rz only, as CUDA's).
const std::vector<std::string_view> &bfloat16FunctionNames();

} // namespace kaji::frontend
