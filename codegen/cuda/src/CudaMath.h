// kaji IR's math functions as calls to CUDA's math library (the same libdevice functions
// the LLVM path links).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::codegen::cuda {

struct MathFunction {
  unsigned arity;
  bool predicate; // isnan, isinf, isfinite: the result is a bool
};

// The IR's math function `name`, or nothing if there is none.
std::optional<MathFunction> mathFunction(std::string_view name);

// The CUDA C++ expression computing `name` on `args`, all float32 (`single`) or float64.
std::string mathCall(std::string_view name, bool single, const std::vector<std::string> &args);

// Whether emitted code may call a function of this name (sin, sinf, fabsf, ...), so that no
// local variable may take it.
bool isMathSymbol(std::string_view name);

} // namespace kaji::codegen::cuda
