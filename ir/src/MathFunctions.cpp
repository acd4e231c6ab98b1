#include "kaji/ir/MathFunctions.h"

#include "FindByName.h"

namespace kaji::ir {
namespace {

constexpr MathFunction kMathFunctions[] = {
#define KAJI_MATH_FUNCTION(name, arity, result, llvmIntrinsic) {#name, arity, MathResult::result},
#include "kaji/ir/MathFunctions.def"
#undef KAJI_MATH_FUNCTION
};

} // namespace

std::span<const MathFunction> mathFunctions() { return kMathFunctions; }

const MathFunction *findMathFunction(std::string_view name) {
  return findByName<MathFunction>(kMathFunctions, name);
}

} // namespace kaji::ir
