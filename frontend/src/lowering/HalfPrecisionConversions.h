// Numba's conversions between a half-precision type (float16 or bfloat16) and the other
// scalars, by name: cuda.fp16 spells them as CUDA C++ does ("__int2half_rz",
// "__half_as_short"), cuda.bf16 with numpy's type names ("int32_to_bfloat16_rz",
// "bfloat16_as_int16") and as CUDA C++ without the underscores ("int2bfloat16_rz"). Both
// modules have the same set (HalfPrecisionConversions.cpp).
#pragma once

#include "kaji/ir/Type.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::frontend {

// How a conversion rounds: CUDA's _rn (nearest even, also the functions without a suffix),
// _rz (toward zero), _rd (down), _ru (up). Exact conversions say Nearest too.
enum class Rounding { Nearest, TowardZero, Down, Up };

struct HalfConversion {
  ir::ScalarKind from;
  ir::ScalarKind to;
  Rounding rounding;
  bool reinterpret; // the bits as the other type (from and to have one width)
};

// The conversion `name` of the module of `half` (Float16: cuda.fp16, BFloat16: cuda.bf16).
std::optional<HalfConversion> halfConversion(ir::ScalarKind half, std::string_view name);
// Every conversion name of that module, in a fixed order.
const std::vector<std::string> &halfConversionNames(ir::ScalarKind half);

} // namespace kaji::frontend
