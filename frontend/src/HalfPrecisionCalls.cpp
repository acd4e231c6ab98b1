// cuda.fp16.NAME(...) and cuda.bf16.NAME(...): Numba's half-precision functions, one list
// for float16 and bfloat16. Each takes values of its module's type (as Numba's typing does)
// and gives one, or a bool for the comparisons. Arithmetic is that type's arithmetic (one
// rounding); the functions are computed in float32 and rounded, as CUDA's own h* functions
// approximate them (docs/language.md, "Half precision").
#include "FunctionLowerer.h"
#include "HalfPrecisionConversions.h"
#include "kaji/frontend/HalfPrecision.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

struct HalfFunction {
  std::string_view name;
  unsigned arity;
};

constexpr HalfFunction kHalfFunctions[] = {
    {"hadd", 2},  {"hsub", 2},   {"hmul", 2},  {"hdiv", 2},   {"hneg", 1},   {"habs", 1},
    {"hfma", 3},  {"hsin", 1},   {"hcos", 1},  {"hlog", 1},   {"hlog10", 1}, {"hlog2", 1},
    {"hexp", 1},  {"hexp10", 1}, {"hexp2", 1}, {"hsqrt", 1},  {"hrsqrt", 1}, {"hfloor", 1},
    {"hceil", 1}, {"hrcp", 1},   {"hrint", 1}, {"htrunc", 1}, {"heq", 2},    {"hne", 2},
    {"hge", 2},   {"hgt", 2},    {"hle", 2},   {"hlt", 2},    {"hmax", 2},   {"hmin", 2},
};

// cuda.fp16 also has these under CUDA C++'s names, "__hadd" for hadd.
constexpr std::string_view kCudaSpelledFunctions[] = {
    "__habs", "__hadd", "__hdiv", "__heq",  "__hfma", "__hge",  "__hgt", "__hle",
    "__hlt",  "__hmax", "__hmin", "__hmul", "__hne",  "__hneg", "__hsub"};

// The h* function a cuda.fp16 name stands for: itself, or the one a CUDA C++ name spells.
std::string_view plainName(ScalarKind kind, std::string_view name) {
  bool cudaSpelled = kind == ScalarKind::Float16 &&
                     std::find(std::begin(kCudaSpelledFunctions), std::end(kCudaSpelledFunctions),
                               name) != std::end(kCudaSpelledFunctions);
  return cudaSpelled ? name.substr(2) : name;
}

// The float32 function that computes each h* function of one argument before rounding:
// a numpy ufunc, or a libdevice function (which the cpu target computes with libm).
struct Float32Route {
  std::string_view name;
  std::string_view numpyName;     // "numpy.NAME", when not empty
  std::string_view libdeviceName; // else cuda.libdevice.NAME
};

constexpr Float32Route kFloat32Routes[] = {
    {"hsin", "numpy.sin", ""},     {"hcos", "numpy.cos", ""},     {"hlog", "numpy.log", ""},
    {"hlog10", "numpy.log10", ""}, {"hlog2", "numpy.log2", ""},   {"hexp", "numpy.exp", ""},
    {"hexp2", "numpy.exp2", ""},   {"hsqrt", "numpy.sqrt", ""},   {"hfloor", "numpy.floor", ""},
    {"hceil", "numpy.ceil", ""},   {"htrunc", "numpy.trunc", ""}, {"hexp10", "", "exp10f"},
    {"hrsqrt", "", "rsqrtf"},      {"hrint", "", "rintf"},
};

// The entry of `table` for the h-function `name` (its first field), or null.
template <class Entry, size_t N>
const Entry *findEntry(const Entry (&table)[N], std::string_view name) {
  const Entry *found = std::find_if(std::begin(table), std::end(table),
                                    [name](const Entry &entry) { return entry.name == name; });
  return found == std::end(table) ? nullptr : found;
}

std::optional<ir::Opcode> arithmeticOpcode(std::string_view name) {
  if (name == "hadd")
    return ir::Opcode::Add;
  if (name == "hsub")
    return ir::Opcode::Sub;
  if (name == "hmul")
    return ir::Opcode::Mul;
  if (name == "hdiv")
    return ir::Opcode::Div;
  return std::nullopt;
}

std::optional<ir::CmpPredicate> comparison(std::string_view name) {
  if (name == "heq")
    return ir::CmpPredicate::Eq;
  if (name == "hge")
    return ir::CmpPredicate::Ge;
  if (name == "hgt")
    return ir::CmpPredicate::Gt;
  if (name == "hle")
    return ir::CmpPredicate::Le;
  if (name == "hlt")
    return ir::CmpPredicate::Lt;
  return std::nullopt;
}

// The h* functions, then the module's conversions.
std::vector<std::string_view> functionNames(ScalarKind half) {
  std::vector<std::string_view> all;
  for (const HalfFunction &function : kHalfFunctions)
    all.push_back(function.name);
  if (half == ScalarKind::Float16)
    all.insert(all.end(), std::begin(kCudaSpelledFunctions), std::end(kCudaSpelledFunctions));
  const std::vector<std::string> &conversions = halfConversionNames(half);
  all.insert(all.end(), conversions.begin(), conversions.end());
  return all;
}

} // namespace

const std::vector<std::string_view> &halfPrecisionFunctionNames() {
  static const std::vector<std::string_view> names = functionNames(ScalarKind::Float16);
  return names;
}

const std::vector<std::string_view> &bfloat16FunctionNames() {
  static const std::vector<std::string_view> names = functionNames(ScalarKind::BFloat16);
  return names;
}

Operand FunctionLowerer::callHalfPrecision(ScalarKind kind, const std::string &spelledName,
                                           const std::vector<Operand> &args, const CallExpr &expr) {
  const std::string typeName(ir::numpyName(kind));
  std::string display =
      std::string(kind == ScalarKind::BFloat16 ? "cuda.bf16." : "cuda.fp16.") + spelledName;
  if (std::optional<HalfConversion> conversion = halfConversion(kind, spelledName))
    return callHalfConversion(*conversion, display, args, expr);
  const std::string name(plainName(kind, spelledName));
  const HalfFunction *function = findEntry(kHalfFunctions, name);
  if (args.size() != function->arity)
    throw ir::CompileError(expr.loc, display + "() takes " + std::to_string(function->arity) +
                                         " argument" + (function->arity == 1 ? "" : "s") + " (" +
                                         std::to_string(args.size()) + " given)");
  std::vector<ir::Value *> values;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].isScalar() || args[i].scalarType().kind != kind)
      throw ir::CompileError(expr.args[i]->loc, display + "() takes " + typeName +
                                                    " values, not '" + describe(args[i]) +
                                                    "' (convert with cuda." + typeName + "(x))");
    values.push_back(args[i].value);
  }
  at(expr.loc);
  if (std::optional<ir::Opcode> opcode = arithmeticOpcode(name))
    return Operand::scalar(builder_.binary(*opcode, values[0], values[1]));
  if (std::optional<ir::CmpPredicate> predicate = comparison(name))
    return Operand::scalar(builder_.cmp(*predicate, values[0], values[1]));
  if (name == "hne") // CUDA's __hne is ordered: false when either is NaN, unlike Python's !=
    return Operand::scalar(
        builder_.binary(ir::Opcode::Or, builder_.cmp(ir::CmpPredicate::Lt, values[0], values[1]),
                        builder_.cmp(ir::CmpPredicate::Gt, values[0], values[1])));
  if (name == "hneg")
    return Operand::scalar(builder_.unary(ir::Opcode::Neg, values[0]));
  if (name == "hrcp")
    return Operand::scalar(
        builder_.binary(ir::Opcode::Div, floatConstant(kind, 1.0).value, values[0]));
  Operand result;
  if (name == "habs")
    result = callMath("numpy.abs", args, expr);
  else if (name == "hmax" || name == "hmin")
    result = callMath(name == "hmax" ? "numpy.fmax" : "numpy.fmin", args, expr);
  else if (name == "hfma")
    result = callMath("kaji.fma", args, expr);
  else if (const Float32Route *route = findEntry(kFloat32Routes, name)) {
    Operand widened = Operand::scalar(convert(args[0], ScalarKind::Float32));
    result = route->numpyName.empty()
                 ? callLibdevice(std::string(route->libdeviceName), {widened}, expr)
                 : callMath(std::string(route->numpyName), {widened}, expr);
  }
  return Operand::scalar(convert(result, kind));
}

} // namespace kaji::frontend
