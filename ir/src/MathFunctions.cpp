#include "kaji/ir/MathFunctions.h"

#include "FindByName.h"

namespace kaji::ir {
namespace {

constexpr MathFunction kMathFunctions[] = {
#define KAJI_MATH_FUNCTION(kind, name, arity, result, half, llvmIntrinsic)                         \
  {MathFunctionKind::kind, #name, arity, MathResult::result, HalfPrecision::half},
#include "kaji/ir/MathFunctions.def"
#undef KAJI_MATH_FUNCTION
};

} // namespace

std::span<const MathFunction> mathFunctions() { return kMathFunctions; }

const MathFunction &mathFunction(MathFunctionKind kind) { return kMathFunctions[size_t(kind)]; }

const MathFunction *findMathFunction(std::string_view name) {
  return findByName<MathFunction>(kMathFunctions, name);
}

std::string_view attributeName(MathFunctionKind kind) { return mathFunction(kind).name; }

} // namespace kaji::ir
