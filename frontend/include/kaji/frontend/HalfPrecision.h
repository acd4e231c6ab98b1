// Numba's `cuda.fp16` and `cuda.bf16` modules: half-precision arithmetic, math, comparisons
// and conversions by name (HalfPrecisionCalls.cpp, HalfPrecisionConversions.cpp).
#pragma once

#include <string_view>
#include <vector>

namespace kaji::frontend {

// The names of cuda.fp16's functions: the h* functions, then the conversions in CUDA C++'s
// spelling (__float2half_rz, __half2int_rn, __short_as_half, ...).
const std::vector<std::string_view> &halfPrecisionFunctionNames();
// cuda.bf16's: the same h* functions, then the conversions in numpy's spelling
// (float32_to_bfloat16_rz, bfloat16_to_int32_rn, int16_as_bfloat16, ...).
const std::vector<std::string_view> &bfloat16FunctionNames();

} // namespace kaji::frontend
