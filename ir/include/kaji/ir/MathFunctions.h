// The functions of the `math` operation, from MathFunctions.def: the one list of them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace kaji::ir {

// The `math` operation's attribute.
enum class MathFunctionKind : uint8_t {
#define KAJI_MATH_FUNCTION(kind, name, arity, result, half, llvmIntrinsic) kind,
#include "kaji/ir/MathFunctions.def"
#undef KAJI_MATH_FUNCTION
};

enum class MathResult : unsigned char {
  SameAsOperand, // the float type of the operands
  Bool,          // a predicate: isnan, isinf, isfinite
};

// What a math function does with f16 and bf16 operands.
enum class HalfPrecision : unsigned char {
  InFloat32, // computes in f32 and rounds the result back
  Refused,   // the verifier rejects them: f32 would compute another function (nextafter)
};

struct MathFunction {
  MathFunctionKind kind;
  std::string_view name; // its IR spelling
  unsigned arity;
  MathResult result;
  HalfPrecision half;
};

std::span<const MathFunction> mathFunctions();
const MathFunction &mathFunction(MathFunctionKind kind);
// Null when no math function has this name.
const MathFunction *findMathFunction(std::string_view name);
std::string_view attributeName(MathFunctionKind kind);

} // namespace kaji::ir
