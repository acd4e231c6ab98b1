// cuda.fp16.NAME(...) and cuda.bf16.NAME(...): Numba's half-precision functions, one list
// for float16 and bfloat16. Each takes values of its module's type (other real numbers are
// converted to it, as the C++ calls Numba binds convert them) and gives one, or a bool for the
// comparisons (an int32 for hisinf). Arithmetic is that type's arithmetic (one rounding); the
// functions are computed in float32 and rounded, as CUDA's own h* functions approximate them
// (docs/language.md, "Half precision").
#include "FunctionLowerer.h"
#include "HalfPrecisionConversions.h"
#include "kaji/frontend/HalfPrecision.h"

#include <algorithm>
#include <iterator>
#include <limits>
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

// Numba's h* functions, from hadd to hmin, then those CUDA adds to them: rounding that is
// explicit, saturation, NaN-aware extrema, classification and comparisons true on NaN.
constexpr HalfFunction kHalfFunctions[] = {
    {"hadd", 2},     {"hsub", 2},     {"hmul", 2},      {"hdiv", 2},     {"hneg", 1},
    {"habs", 1},     {"hfma", 3},     {"hsin", 1},      {"hcos", 1},     {"hlog", 1},
    {"hlog10", 1},   {"hlog2", 1},    {"hexp", 1},      {"hexp10", 1},   {"hexp2", 1},
    {"hsqrt", 1},    {"hrsqrt", 1},   {"hfloor", 1},    {"hceil", 1},    {"hrcp", 1},
    {"hrint", 1},    {"htrunc", 1},   {"heq", 2},       {"hne", 2},      {"hge", 2},
    {"hgt", 2},      {"hle", 2},      {"hlt", 2},       {"hmax", 2},     {"hmin", 2},
    {"hadd_rn", 2},  {"hsub_rn", 2},  {"hmul_rn", 2},   {"hadd_sat", 2}, {"hsub_sat", 2},
    {"hmul_sat", 2}, {"hfma_sat", 3}, {"hfma_relu", 3}, {"hmax_nan", 2}, {"hmin_nan", 2},
    {"hisinf", 1},   {"hisnan", 1},   {"hequ", 2},      {"hneu", 2},     {"hltu", 2},
    {"hleu", 2},     {"hgtu", 2},     {"hgeu", 2},      {"htanh", 1},    {"htanh_approx", 1},
};

// cuda.fp16 also has these under CUDA C++'s names, "__hadd" for hadd.
constexpr std::string_view kCudaSpelledFunctions[] = {
    "__habs", "__hadd", "__hdiv", "__heq", "__hfma", "__hge", "__hgt", "__hle", "__hlt", "__hmax",
    "__hmin", "__hmul", "__hne", "__hneg", "__hsub",
    // Numba's fp16 module has these under CUDA's names only.
    "__hadd_rn", "__hsub_rn", "__hmul_rn", "__hadd_sat", "__hsub_sat", "__hmul_sat", "__hfma_sat",
    "__hfma_relu", "__hmax_nan", "__hmin_nan", "__hisinf", "__hisnan", "__hequ", "__hneu", "__hltu",
    "__hleu", "__hgtu", "__hgeu"};

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
    {"hceil", "numpy.ceil", ""},   {"htrunc", "numpy.trunc", ""}, {"htanh", "numpy.tanh", ""},
    {"hexp10", "", "exp10f"},      {"hrsqrt", "", "rsqrtf"},      {"hrint", "", "rintf"},
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

// The comparisons that are one IR comparison, or its negation: the unordered ones (true when
// either operand is NaN) negate the ordered comparison of the opposite sense, "hltu" is not
// "hge". Python's != (Ne) is already unordered; hne and hequ are two comparisons.
struct HalfComparison {
  std::string_view name;
  ir::CmpPredicate predicate;
  bool negated;
};

constexpr HalfComparison kComparisons[] = {
    {"heq", ir::CmpPredicate::Eq, false}, {"hge", ir::CmpPredicate::Ge, false},
    {"hgt", ir::CmpPredicate::Gt, false}, {"hle", ir::CmpPredicate::Le, false},
    {"hlt", ir::CmpPredicate::Lt, false}, {"hneu", ir::CmpPredicate::Ne, false},
    {"hltu", ir::CmpPredicate::Ge, true}, {"hleu", ir::CmpPredicate::Gt, true},
    {"hgtu", ir::CmpPredicate::Le, true}, {"hgeu", ir::CmpPredicate::Lt, true},
};

// What a suffixed function computes before its suffix applies: "hadd" for "hadd_sat".
std::string_view withoutSuffix(std::string_view name) {
  for (std::string_view suffix : {"_rn", "_sat", "_relu", "_approx"})
    if (name.ends_with(suffix))
      return name.substr(0, name.size() - suffix.size());
  return name;
}

// CUDA's saturation to [0, 1]: NaN and -0 give +0, as its definition hmin(hmax(r, +0), 1) does.
ir::Value *saturated(ir::Builder &builder, ir::Value *result) {
  ir::Value *zero = builder.floatConstant(result->type(), 0.0);
  ir::Value *one = builder.floatConstant(result->type(), 1.0);
  ir::Value *belowOne = builder.select(builder.cmp(ir::CmpPredicate::Lt, result, one), result, one);
  return builder.select(builder.cmp(ir::CmpPredicate::Gt, result, zero), belowOne, zero);
}

// CUDA's relu: negative results and -0 give +0, NaN stays NaN (r <= 0 is false for it).
ir::Value *rectified(ir::Builder &builder, ir::Value *result) {
  ir::Value *zero = builder.floatConstant(result->type(), 0.0);
  return builder.select(builder.cmp(ir::CmpPredicate::Le, result, zero), zero, result);
}

// hmax_nan / hmin_nan: NaN when either operand is NaN, and +0 > -0. Equal operands differ at
// most in the sign of zero, so the larger one's bits are their AND, the smaller one's their OR.
ir::Value *nanPropagatingExtremum(ir::Builder &builder, ir::Value *a, ir::Value *b, bool larger) {
  ir::CmpPredicate wins = larger ? ir::CmpPredicate::Gt : ir::CmpPredicate::Lt;
  ir::Type bits = ir::Type::scalar(ScalarKind::UInt16);
  ir::Value *tie =
      builder.bitcast(builder.binary(larger ? ir::Opcode::And : ir::Opcode::Or,
                                     builder.bitcast(a, bits), builder.bitcast(b, bits)),
                      a->type());
  ir::Value *ordered =
      builder.select(builder.cmp(wins, a, b), a, builder.select(builder.cmp(wins, b, a), b, tie));
  ir::Value *unordered = builder.binary(ir::Opcode::Or, builder.cmp(ir::CmpPredicate::Ne, a, a),
                                        builder.cmp(ir::CmpPredicate::Ne, b, b));
  return builder.select(unordered,
                        builder.floatConstant(a->type(), std::numeric_limits<double>::quiet_NaN()),
                        ordered);
}

// CUDA's __hne is ordered: false when either is NaN, unlike Python's !=.
ir::Value *orderedUnequal(ir::Builder &builder, ir::Value *a, ir::Value *b) {
  return builder.binary(ir::Opcode::Or, builder.cmp(ir::CmpPredicate::Lt, a, b),
                        builder.cmp(ir::CmpPredicate::Gt, a, b));
}

// hisinf: 1 for +inf, -1 for -inf, else 0, as CUDA's int-valued __hisinf.
ir::Value *infinitySign(ir::Builder &builder, ir::Value *value) {
  ir::Type int32 = ir::Type::scalar(ScalarKind::Int32);
  double infinity = std::numeric_limits<double>::infinity();
  auto equals = [&](double limit) {
    return builder.cmp(ir::CmpPredicate::Eq, value, builder.floatConstant(value->type(), limit));
  };
  return builder.select(equals(infinity), builder.intConstant(int32, 1),
                        builder.select(equals(-infinity), builder.intConstant(int32, -1),
                                       builder.intConstant(int32, 0)));
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
  // Numba's bindings of CUDA's functions take what a C++ call converts to the type: any real
  // number (a literal, an integer, another float type), each converted first.
  at(expr.loc);
  std::vector<Operand> converted;
  std::vector<ir::Value *> values;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].isScalar() || ir::isComplex(args[i].scalarType().kind))
      throw ir::CompileError(expr.args[i]->loc, display + "() takes " + typeName +
                                                    " values (or real numbers, converted), not '" +
                                                    describe(args[i]) + "'");
    converted.push_back(Operand::scalar(convert(args[i], kind)));
    values.push_back(converted.back().value);
  }
  if (name == "hisnan")
    return Operand::scalar(builder_.cmp(ir::CmpPredicate::Ne, values[0], values[0]));
  if (name == "hisinf")
    return Operand::scalar(infinitySign(builder_, values[0]));
  if (name == "hmax_nan" || name == "hmin_nan")
    return Operand::scalar(
        nanPropagatingExtremum(builder_, values[0], values[1], name == "hmax_nan"));
  if (const HalfComparison *comparison = findEntry(kComparisons, name)) {
    ir::Value *compared = builder_.cmp(comparison->predicate, values[0], values[1]);
    return Operand::scalar(comparison->negated ? builder_.unary(ir::Opcode::Not, compared)
                                               : compared);
  }
  if (name == "hne" || name == "hequ") {
    ir::Value *unequal = orderedUnequal(builder_, values[0], values[1]);
    return Operand::scalar(name == "hne" ? unequal : builder_.unary(ir::Opcode::Not, unequal));
  }
  ir::Value *result = callHalfFunction(kind, withoutSuffix(name), converted, values, expr);
  if (name.ends_with("_sat"))
    return Operand::scalar(saturated(builder_, result));
  if (name == "hfma_relu")
    return Operand::scalar(rectified(builder_, result));
  return Operand::scalar(result);
}

// The value of one of the h* functions without a suffix (hadd, hsin, hfma, ...).
ir::Value *FunctionLowerer::callHalfFunction(ScalarKind kind, std::string_view name,
                                             const std::vector<Operand> &args,
                                             const std::vector<ir::Value *> &values,
                                             const CallExpr &expr) {
  if (std::optional<ir::Opcode> opcode = arithmeticOpcode(name))
    return builder_.binary(*opcode, values[0], values[1]);
  if (name == "hneg")
    return builder_.unary(ir::Opcode::Neg, values[0]);
  if (name == "hrcp")
    return builder_.binary(ir::Opcode::Div, floatConstant(kind, 1.0).value, values[0]);
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
  return convert(result, kind);
}

} // namespace kaji::frontend
