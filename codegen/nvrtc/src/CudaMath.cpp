#include "CudaMath.h"

#include "CommaSeparated.h"

#include "kaji/ir/MathFunctions.h"

namespace kaji::codegen::nvrtc {
namespace {

// C library functions the emitted code calls beyond the IR's math functions: pow for `**`,
// rint for roundeven.
constexpr std::string_view kOtherFunctions[] = {"pow", "rint"};

// `name` is `function` or its float32 variant (`sinf`).
bool spells(std::string_view name, std::string_view function) {
  return name == function ||
         (name.size() == function.size() + 1 && name.starts_with(function) && name.back() == 'f');
}

} // namespace

std::string mathCall(ir::MathFunctionKind function, bool single,
                     const std::vector<std::string> &args) {
  using Math = ir::MathFunctionKind;
  std::string_view name = ir::attributeName(function);
  const std::string &x = args.front();
  std::string infinity =
      single ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000LL)";
  std::string magnitude = std::string(single ? "fabsf(" : "fabs(") + x + ")";
  switch (function) {
  case Math::IsNan:
    return "(" + x + " != " + x + ")";
  case Math::IsInf:
    return "(" + magnitude + " == " + infinity + ")";
  case Math::IsFinite:
    return "(" + magnitude + " < " + infinity + ")";
  case Math::Minimum: // NaN-propagating, -0.0 below +0.0
  case Math::Maximum:
    return "kaji::" + std::string(name) + "(" + commaSeparated(args) + ")";
  case Math::RoundEven: // half to even: rint in the default rounding mode
    return std::string(single ? "rintf(" : "rint(") + x + ")";
  default:
    // round is C's (half away from zero), as llvm.round on the LLVM path.
    return std::string(name) + (single ? "f" : "") + "(" + commaSeparated(args) + ")";
  }
}

bool isMathSymbol(std::string_view name) {
  for (const ir::MathFunction &function : ir::mathFunctions())
    if (spells(name, function.name))
      return true;
  for (std::string_view function : kOtherFunctions)
    if (spells(name, function))
      return true;
  return false;
}

} // namespace kaji::codegen::nvrtc
