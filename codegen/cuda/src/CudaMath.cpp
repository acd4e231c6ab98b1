#include "CudaMath.h"

#include "CommaSeparated.h"

namespace kaji::codegen::cuda {
namespace {

struct Entry {
  std::string_view name;
  MathFunction function;
};

// The verifier's list (docs/ir.md). CUDA spells each function as C does: `sinf` for float32,
// `sin` for float64.
constexpr Entry kFunctions[] = {
    {"sqrt", {1, false}},    {"rsqrt", {1, false}},    {"cbrt", {1, false}},
    {"exp", {1, false}},     {"exp2", {1, false}},     {"expm1", {1, false}},
    {"log", {1, false}},     {"log2", {1, false}},     {"log10", {1, false}},
    {"log1p", {1, false}},   {"sin", {1, false}},      {"cos", {1, false}},
    {"tan", {1, false}},     {"asin", {1, false}},     {"acos", {1, false}},
    {"atan", {1, false}},    {"sinh", {1, false}},     {"cosh", {1, false}},
    {"tanh", {1, false}},    {"asinh", {1, false}},    {"acosh", {1, false}},
    {"atanh", {1, false}},   {"erf", {1, false}},      {"erfc", {1, false}},
    {"lgamma", {1, false}},  {"tgamma", {1, false}},   {"floor", {1, false}},
    {"ceil", {1, false}},    {"trunc", {1, false}},    {"round", {1, false}},
    {"fabs", {1, false}},    {"atan2", {2, false}},    {"hypot", {2, false}},
    {"fmod", {2, false}},    {"copysign", {2, false}}, {"pow", {2, false}},
    {"minimum", {2, false}}, {"maximum", {2, false}},  {"fmin", {2, false}},
    {"fmax", {2, false}},    {"fma", {3, false}},      {"isnan", {1, true}},
    {"isinf", {1, true}},    {"isfinite", {1, true}},
};

} // namespace

std::optional<MathFunction> mathFunction(std::string_view name) {
  for (const Entry &entry : kFunctions)
    if (entry.name == name)
      return entry.function;
  return std::nullopt;
}

std::string mathCall(std::string_view name, bool single, const std::vector<std::string> &args) {
  const std::string &x = args.front();
  std::string infinity =
      single ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000LL)";
  std::string magnitude = std::string(single ? "fabsf(" : "fabs(") + x + ")";
  if (name == "isnan")
    return "(" + x + " != " + x + ")";
  if (name == "isinf")
    return "(" + magnitude + " == " + infinity + ")";
  if (name == "isfinite")
    return "(" + magnitude + " < " + infinity + ")";
  if (name == "minimum" || name == "maximum") // NaN-propagating, -0.0 below +0.0
    return "kaji::" + std::string(name) + "(" + commaSeparated(args) + ")";
  // round is C's (half away from zero), as llvm.round on the LLVM path.
  return std::string(name) + (single ? "f" : "") + "(" + commaSeparated(args) + ")";
}

bool isMathSymbol(std::string_view name) {
  for (const Entry &entry : kFunctions)
    if (name == entry.name ||
        (name.size() == entry.name.size() + 1 && name.substr(0, entry.name.size()) == entry.name &&
         name.back() == 'f'))
      return true;
  return false;
}

} // namespace kaji::codegen::cuda
