// How an argument converts to a parameter of an eagerly compiled signature, rated as Numba
// rates overloads: a kernel's launch (python/src/overload_resolution.cpp) and a call of a
// device function given signatures (lowering/DeviceFunctionCalls.cpp) pick the best one.
#pragma once

#include "kaji/ir/Type.h"

#include <tuple>

namespace kaji::frontend {

// From the best to the worst: Promote keeps every value and its kind (float32 to float64,
// int32 to int64, a C array to one of any layout), Safe keeps every value (int32 to float64),
// Unsafe may not (float64 to float32, float64 to int64).
enum class Conversion { Exact, Promote, Safe, Unsafe };

// A real scalar kind to another, or a complex one's parts to another's.
Conversion realConversion(ir::ScalarKind param, ir::ScalarKind arg);

// A scalar (real or complex) to another: a real number becomes a complex one's real part (safe
// where the parts keep its value). Complex to real is no conversion; callers reject it.
Conversion scalarConversion(ir::ScalarKind param, ir::ScalarKind arg);

// A signature's conversions of a call's arguments, compared as Numba rates them: fewer unsafe
// ones first, then fewer safe ones, then fewer promotions.
struct ConversionRating {
  unsigned unsafe = 0, safe = 0, promote = 0;
  void add(Conversion kind) {
    unsafe += kind == Conversion::Unsafe;
    safe += kind == Conversion::Safe;
    promote += kind == Conversion::Promote;
  }
  bool operator<(const ConversionRating &other) const {
    return std::tie(unsafe, safe, promote) < std::tie(other.unsafe, other.safe, other.promote);
  }
};

} // namespace kaji::frontend
