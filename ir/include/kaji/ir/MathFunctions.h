// The functions of the `math` operation, from MathFunctions.def: the one list of them.
#pragma once

#include <span>
#include <string_view>

namespace kaji::ir {

enum class MathResult : unsigned char {
  SameAsOperand, // the float type of the operands
  Bool,          // a predicate: isnan, isinf, isfinite
};

struct MathFunction {
  std::string_view name; // the `math` operation's attribute
  unsigned arity;
  MathResult result;
};

std::span<const MathFunction> mathFunctions();
// Null when no math function has this name.
const MathFunction *findMathFunction(std::string_view name);

} // namespace kaji::ir
