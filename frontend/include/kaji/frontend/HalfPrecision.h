// Numba's `cuda.fp16` module: float16 arithmetic, math and comparisons by name
// (HalfPrecisionCalls.cpp).
#pragma once

#include <string_view>
#include <vector>

namespace kaji::frontend {

// The names of cuda.fp16's functions, in the order Numba documents them.
const std::vector<std::string_view> &halfPrecisionFunctionNames();

} // namespace kaji::frontend
