// What kernels may use of the kaji (alias cuda), math and numpy modules and of Python's
// builtins: thread indexing, conversions, min/max/abs/len, math functions, constants.
#include "ComplexArithmetic.h"
#include "FunctionLowerer.h"
#include "kaji/frontend/Float8.h"
#include "kaji/frontend/HalfPrecision.h"

#include "kaji/frontend/Signature.h"
#include "kaji/ir/RecordType.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

enum class MathKind : uint8_t {
  Float,         // float(s) -> same float
  ToInteger,     // math.floor/ceil/trunc: float -> int64, ints pass through
  Predicate,     // isnan/isinf/isfinite -> bool
  Power,         // math.pow: float pow
  PowerOperator, // numpy.power: like a ** b, integer powers wrap
  Log,           // math.log(x[, base])
  Abs,           // numpy.abs: like abs()
  Minimum,       // numpy.minimum/fmin: min on integers, `function` on floats
  Maximum,       // numpy.maximum/fmax: max on integers, `function` on floats
};

using Math = ir::MathFunctionKind;

// Python's float(text): the decimal literal (digits grouped by single underscores, an optional
// fraction and exponent), "inf", "infinity" or "nan" in any case, with a sign and surrounding
// whitespace; nullopt where Python raises ValueError.
std::optional<double> parsePythonFloat(std::string_view text) {
  auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+'))
    text.remove_prefix(1);
  std::string lower;
  for (char c : text)
    lower += char(std::tolower(static_cast<unsigned char>(c)));
  double sign = negative ? -1.0 : 1.0;
  if (lower == "inf" || lower == "infinity")
    return sign * std::numeric_limits<double>::infinity();
  if (lower == "nan")
    return sign * std::numeric_limits<double>::quiet_NaN();
  // The literal without its underscores, each of which must stand between two digits.
  std::string digits;
  size_t mantissaDigits = 0;
  bool seenPoint = false, seenExponent = false, exponentDigits = false;
  for (size_t i = 0; i < lower.size(); ++i) {
    char c = lower[i];
    bool digit = c >= '0' && c <= '9';
    if (digit) {
      if (seenExponent)
        exponentDigits = true;
      else
        ++mantissaDigits;
    } else if (c == '_') {
      auto isDigitAt = [&](size_t at) {
        return at < lower.size() && lower[at] >= '0' && lower[at] <= '9';
      };
      if (i == 0 || !isDigitAt(i - 1) || !isDigitAt(i + 1))
        return std::nullopt;
      continue;
    } else if (c == '.' && !seenPoint && !seenExponent) {
      seenPoint = true;
    } else if (c == 'e' && !seenExponent && mantissaDigits > 0) {
      seenExponent = true;
      digits += 'e';
      if (i + 1 < lower.size() && (lower[i + 1] == '+' || lower[i + 1] == '-'))
        digits += lower[++i];
      continue;
    } else {
      return std::nullopt;
    }
    digits += c;
  }
  if (mantissaDigits == 0 || (seenExponent && !exponentDigits))
    return std::nullopt;
  // strtod rounds correctly and gives inf or 0 past double's range, as Python does; the
  // decimal point is the C locale's, which Python keeps for LC_NUMERIC.
  double value = std::strtod(digits.c_str(), nullptr);
  return sign * value;
}

// What a module's function computes: its name there, the `math` operation computing it on
// floats (none for the kinds that lower to an opcode), its arity and how it is lowered.
struct MathFunction {
  std::string_view name;     // without the module
  std::string_view mathName; // its name in Python's math module (and cmath's), or ""
  std::optional<ir::MathFunctionKind> function;
  unsigned arity;
  MathKind kind;
};

// The scalar functions of Python's math module, numpy's ufuncs and kaji (Numba's cuda.fma and
// cuda.cbrt), one row each: its name in each module ("" where the module has none), and how
// math and numpy lower it (kaji's compute floats). numpy keeps floor/ceil/trunc floats and
// takes log without a base.
struct MathFunctionRow {
  std::string_view math, numpy, kaji;
  std::optional<ir::MathFunctionKind> function;
  unsigned arity;
  MathKind asMath, asNumpy;
};

constexpr MathFunctionRow kMathFunctions[] = {
    {"sqrt", "sqrt", "", Math::Sqrt, 1, MathKind::Float, MathKind::Float},
    {"exp", "exp", "", Math::Exp, 1, MathKind::Float, MathKind::Float},
    {"exp2", "exp2", "", Math::Exp2, 1, MathKind::Float, MathKind::Float},
    {"expm1", "expm1", "", Math::ExpM1, 1, MathKind::Float, MathKind::Float},
    {"log", "log", "", Math::Log, 1, MathKind::Log, MathKind::Float},
    {"log2", "log2", "", Math::Log2, 1, MathKind::Float, MathKind::Float},
    {"log10", "log10", "", Math::Log10, 1, MathKind::Float, MathKind::Float},
    {"log1p", "log1p", "", Math::Log1P, 1, MathKind::Float, MathKind::Float},
    {"cbrt", "cbrt", "cbrt", Math::Cbrt, 1, MathKind::Float, MathKind::Float},
    {"sin", "sin", "", Math::Sin, 1, MathKind::Float, MathKind::Float},
    {"cos", "cos", "", Math::Cos, 1, MathKind::Float, MathKind::Float},
    {"tan", "tan", "", Math::Tan, 1, MathKind::Float, MathKind::Float},
    {"asin", "arcsin", "", Math::Asin, 1, MathKind::Float, MathKind::Float},
    {"acos", "arccos", "", Math::Acos, 1, MathKind::Float, MathKind::Float},
    {"atan", "arctan", "", Math::Atan, 1, MathKind::Float, MathKind::Float},
    {"sinh", "sinh", "", Math::Sinh, 1, MathKind::Float, MathKind::Float},
    {"cosh", "cosh", "", Math::Cosh, 1, MathKind::Float, MathKind::Float},
    {"tanh", "tanh", "", Math::Tanh, 1, MathKind::Float, MathKind::Float},
    {"asinh", "arcsinh", "", Math::Asinh, 1, MathKind::Float, MathKind::Float},
    {"acosh", "arccosh", "", Math::Acosh, 1, MathKind::Float, MathKind::Float},
    {"atanh", "arctanh", "", Math::Atanh, 1, MathKind::Float, MathKind::Float},
    {"erf", "", "", Math::Erf, 1, MathKind::Float, MathKind::Float},
    {"erfc", "", "", Math::Erfc, 1, MathKind::Float, MathKind::Float},
    {"gamma", "", "", Math::TGamma, 1, MathKind::Float, MathKind::Float},
    {"lgamma", "", "", Math::LGamma, 1, MathKind::Float, MathKind::Float},
    {"fabs", "fabs", "", Math::FAbs, 1, MathKind::Float, MathKind::Float},
    {"atan2", "arctan2", "", Math::Atan2, 2, MathKind::Float, MathKind::Float},
    {"hypot", "hypot", "", Math::Hypot, 2, MathKind::Float, MathKind::Float},
    {"copysign", "copysign", "", Math::CopySign, 2, MathKind::Float, MathKind::Float},
    {"fmod", "fmod", "", Math::FMod, 2, MathKind::Float, MathKind::Float},
    {"nextafter", "nextafter", "", Math::NextAfter, 2, MathKind::Float, MathKind::Float},
    {"pow", "power", "", std::nullopt, 2, MathKind::Power, MathKind::PowerOperator},
    {"floor", "floor", "", Math::Floor, 1, MathKind::ToInteger, MathKind::Float},
    {"ceil", "ceil", "", Math::Ceil, 1, MathKind::ToInteger, MathKind::Float},
    {"trunc", "trunc", "", Math::Trunc, 1, MathKind::ToInteger, MathKind::Float},
    {"isnan", "isnan", "", Math::IsNan, 1, MathKind::Predicate, MathKind::Predicate},
    {"isinf", "isinf", "", Math::IsInf, 1, MathKind::Predicate, MathKind::Predicate},
    {"isfinite", "isfinite", "", Math::IsFinite, 1, MathKind::Predicate, MathKind::Predicate},
    {"", "abs", "", std::nullopt, 1, MathKind::Float, MathKind::Abs},
    {"", "absolute", "", std::nullopt, 1, MathKind::Float, MathKind::Abs},
    {"", "minimum", "", Math::Minimum, 2, MathKind::Float, MathKind::Minimum},
    {"", "maximum", "", Math::Maximum, 2, MathKind::Float, MathKind::Maximum},
    {"", "fmin", "", Math::FMin, 2, MathKind::Float, MathKind::Minimum},
    {"", "fmax", "", Math::FMax, 2, MathKind::Float, MathKind::Maximum},
    {"", "rint", "", Math::RoundEven, 1, MathKind::Float, MathKind::Float},
    {"", "", "fma", Math::Fma, 3, MathKind::Float, MathKind::Float},
};

std::optional<MathFunction> findMathFunction(std::string_view qualified) {
  std::string_view module = qualified.substr(0, qualified.find('.'));
  std::string_view name = qualified.substr(module.size() + 1);
  if (name.empty() || module.size() == qualified.size())
    return std::nullopt;
  for (const MathFunctionRow &row : kMathFunctions) {
    if (module == "math" && row.math == name)
      return MathFunction{name, row.math, row.function, row.arity, row.asMath};
    if (module == "numpy" && row.numpy == name)
      return MathFunction{name, row.math, row.function, row.arity, row.asNumpy};
    if (module == "kaji" && row.kaji == name)
      return MathFunction{name, row.math, row.function, row.arity, MathKind::Float};
  }
  return std::nullopt;
}

std::optional<double> floatConstantNamed(std::string_view member) {
  if (member == "pi")
    return M_PI;
  if (member == "e")
    return M_E;
  if (member == "tau")
    return 2 * M_PI;
  if (member == "inf")
    return std::numeric_limits<double>::infinity();
  if (member == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

std::optional<ir::SpecialReg::Kind> specialRegisterNamed(std::string_view name) {
  if (name == "kaji.threadIdx")
    return ir::SpecialReg::ThreadIdx;
  if (name == "kaji.blockIdx")
    return ir::SpecialReg::BlockIdx;
  if (name == "kaji.blockDim")
    return ir::SpecialReg::BlockDim;
  if (name == "kaji.gridDim")
    return ir::SpecialReg::GridDim;
  return std::nullopt;
}

bool isKajiFunction(std::string_view member) {
  for (std::string_view fn : {"grid",
                              "gridsize",
                              "syncthreads",
                              "threadfence",
                              "threadfence_block",
                              "threadfence_system",
                              "popc",
                              "brev",
                              "clz",
                              "ffs",
                              "selp",
                              "syncwarp",
                              "syncthreads_count",
                              "syncthreads_and",
                              "syncthreads_or",
                              "shfl_sync",
                              "shfl_up_sync",
                              "shfl_down_sync",
                              "shfl_xor_sync",
                              "ballot_sync",
                              "all_sync",
                              "any_sync",
                              "eq_sync",
                              "match_any_sync",
                              "match_all_sync",
                              "nanosleep",
                              "activemask",
                              "lanemask_lt",
                              "literal_unroll",
                              "carray",
                              "farray"})
    if (member == fn)
      return true;
  return cachedAccessNamed(member) || findMathFunction("kaji." + std::string(member)).has_value();
}

// kaji's namespaces of functions, and their members.
const std::vector<std::string_view> *kajiNamespaceMembers(std::string_view name) {
  static const std::vector<std::string_view> atomic = {
      "add",  "sub", "max", "min", "nanmax", "nanmin", "exch",
      "and_", "or_", "xor", "inc", "dec",    "cas",    "compare_and_swap"};
  static const std::vector<std::string_view> array = {"array"};
  static const std::vector<std::string_view> arrayLike = {"array_like"};
  static const std::vector<std::string_view> cooperativeGroups = {"this_grid"};
  static const std::vector<std::string_view> matrixFragments = {
      "fragment",  "fill_fragment", "load_matrix_sync", "store_matrix_sync",
      "mma_sync",  "matrix_a",      "matrix_b",         "accumulator",
      "row_major", "col_major",     "mem_row_major",    "mem_col_major"};
  static const std::vector<std::string_view> asyncCopies = {"memcpy_async", "commit", "wait_prior"};
  static const std::vector<std::string_view> warpgroupMma = {"mma_async", "commit_group",
                                                             "wait_group"};
  if (name == "atomic")
    return &atomic;
  if (name == "wmma")
    return &matrixFragments;
  if (name == "pipeline")
    return &asyncCopies;
  if (name == "wgmma")
    return &warpgroupMma;
  if (name == "cg")
    return &cooperativeGroups;
  if (name == "const")
    return &arrayLike;
  if (name == "shared" || name == "local")
    return &array;
  if (name == "fp16")
    return &halfPrecisionFunctionNames();
  if (name == "bf16")
    return &bfloat16FunctionNames();
  if (name == "fp8")
    return &float8FunctionNames();
  return nullptr;
}

bool isKajiNamespaceMember(std::string_view qualified) {
  size_t dot = qualified.find('.');
  if (dot == std::string_view::npos)
    return false;
  const std::vector<std::string_view> *members = kajiNamespaceMembers(qualified.substr(0, dot));
  return members &&
         std::find(members->begin(), members->end(), qualified.substr(dot + 1)) != members->end();
}

std::optional<unsigned> mathUfuncArity(std::string_view member) {
  for (const MathFunctionRow &row : kMathFunctions)
    if (row.numpy == member)
      return row.arity;
  return std::nullopt;
}

std::string shortName(const std::string &qualified) {
  return qualified.starts_with("builtins.") ? qualified.substr(9) : qualified;
}

} // namespace

std::optional<unsigned> numpyUfuncArity(std::string_view member) {
  if (std::optional<unsigned> arity = mathUfuncArity(member))
    return arity;
  return operatorUfuncArity(member);
}

Operand FunctionLowerer::resolveGlobal(const GlobalValue &global, const Location &loc) {
  switch (global.kind) {
  case GlobalValue::Kind::Module:
    return resolveQualified(global.qualifiedName, loc);
  case GlobalValue::Kind::Builtin:
    return resolveQualified(global.qualifiedName, loc);
  case GlobalValue::Kind::Constant: {
    at(loc);
    Operand constant = ir::isFloat(global.constantType)
                           ? floatConstant(global.constantType, global.floatValue, global.weak)
                           : intConstant(global.constantType, global.intValue, global.weak);
    if (!global.enumClass.empty())
      constant.enumMember = &global;
    return constant;
  }
  case GlobalValue::Kind::EnumClass: {
    Operand enumClass;
    enumClass.kind = Operand::Kind::EnumClass;
    enumClass.global = &global;
    return enumClass;
  }
  case GlobalValue::Kind::Function: {
    Operand fn;
    fn.kind = Operand::Kind::Function;
    fn.function = global.function;
    if (!fn.function.env)
      fn.function.env = env_;
    return fn;
  }
  case GlobalValue::Kind::ExceptionClass:
    throw ir::CompileError(loc, "an exception class is only raised in kernels ('raise " +
                                    global.qualifiedName.substr(0, global.qualifiedName.find('@')) +
                                    "(...)')");
  case GlobalValue::Kind::External: {
    Operand external;
    external.kind = Operand::Kind::External;
    external.global = &global;
    return external;
  }
  case GlobalValue::Kind::Unusable:
    throw ir::CompileError(loc,
                           "Untyped global name '" + global.qualifiedName + "': " + global.text);
  case GlobalValue::Kind::Overloaded: {
    Operand overloaded;
    overloaded.kind = Operand::Kind::Overloaded;
    overloaded.global = &global;
    return overloaded;
  }
  case GlobalValue::Kind::Array:
    return globalConstArray(global, loc);
  case GlobalValue::Kind::RecordType: {
    Operand recordType;
    recordType.kind = Operand::Kind::RecordType;
    recordType.global = &global;
    return recordType;
  }
  case GlobalValue::Kind::DeviceArray: {
    at(loc);
    const ir::Type i64 = ir::Type::scalar(ir::ScalarKind::Int64);
    std::vector<ir::Value *> placement{builder_.intConstant(i64, int64_t(global.arrayAddress))};
    for (const std::vector<int64_t> *values : {&global.arrayShape, &global.arrayStrides})
      for (int64_t value : *values)
        placement.push_back(builder_.intConstant(i64, value));
    ir::Type type = ir::Type::array(global.arrayElement, unsigned(global.arrayShape.size()),
                                    global.arrayLayout);
    return Operand::array(builder_.create(ir::Opcode::ArrayAt, type, placement)->result());
  }
  case GlobalValue::Kind::TupleClass: {
    Operand tupleClass;
    tupleClass.kind = Operand::Kind::TupleClass;
    tupleClass.tupleClass = global.tupleClass;
    tupleClass.fields = global.fields;
    return tupleClass;
  }
  case GlobalValue::Kind::Namespace: {
    Operand module;
    module.kind = Operand::Kind::Namespace;
    module.global = &global;
    return module;
  }
  case GlobalValue::Kind::NoneValue:
    return Operand();
  case GlobalValue::Kind::String:
    return Operand::named(Operand::Kind::String, global.text);
  case GlobalValue::Kind::Tuple: {
    std::vector<Operand> elements;
    for (const GlobalValue &element : global.elements)
      elements.push_back(resolveGlobal(element, loc));
    requireTupleSize(elements, loc, [] { return std::string("a global or closure value"); });
    Operand tuple = Operand::tuple(std::move(elements));
    tuple.tupleClass = global.tupleClass;
    tuple.fields = global.fields;
    return tuple;
  }
  }
  throw ir::CompileError(loc, "unsupported global value");
}

Operand FunctionLowerer::resolveQualified(const std::string &name, const Location &loc) {
  size_t dot = name.find('.');
  if (dot == std::string::npos)
    return Operand::named(Operand::Kind::Module, name);
  std::string module = name.substr(0, dot);
  std::string member = name.substr(dot + 1);
  if (module == "builtins")
    return Operand::named(Operand::Kind::Builtin, name);
  if (module == "numba" && member == "cuda")
    return Operand::named(Operand::Kind::Module, "kaji");
  // Numba's and kaji's `types` modules name what the modules themselves name.
  if ((module == "numba" || module == "kaji") && member == "types")
    return Operand::named(Operand::Kind::Module, module);
  // A scalar type of Numba's (or kaji's, the same names) is the numpy type it means.
  if (module == "numba" || module == "kaji")
    if (auto kind = scalarKindFromSignatureName(member))
      return Operand::named(Operand::Kind::Builtin, "numpy." + std::string(ir::numpyName(*kind)));
  if (module == "numba")
    module = "kaji";
  if (module == "kaji") {
    if (member == "cuda")
      return Operand::named(Operand::Kind::Module, "kaji");
    if (specialRegisterNamed("kaji." + member) || kajiNamespaceMembers(member))
      return Operand::named(Operand::Kind::Module, "kaji." + member);
    if (isKajiNamespaceMember(member) || isKajiFunction(member) || vectorTypeNamed(member))
      return Operand::named(Operand::Kind::Builtin, "kaji." + member);
    if (member == "laneid")
      return laneId(loc);
    if (member == "libdevice")
      return Operand::named(Operand::Kind::Module, "kaji.libdevice");
    if (member.starts_with("libdevice.")) {
      if (!ir::findLibdeviceFunction(member.substr(10)))
        throw ir::CompileError(loc, "cuda.libdevice has no function '" + member.substr(10) + "'");
      return Operand::named(Operand::Kind::Builtin, "kaji." + member);
    }
    if (member == "warpsize") {
      at(loc);
      return intConstant(ScalarKind::Int32, 32);
    }
    throw ir::CompileError(loc, "kaji has no attribute '" + member + "' supported in kernels");
  }
  if (module == "cffi") { // a cffi.FFI object (kaji/_globals.py)
    if (member != "from_buffer")
      throw ir::CompileError(loc, "kernels use a cffi FFI object's from_buffer only, not '" +
                                      member + "'");
    return Operand::named(Operand::Kind::Builtin, name);
  }
  if (module == "cmath") {
    if (isCmathFunction(member))
      return Operand::named(Operand::Kind::Builtin, name);
    if (auto value = floatConstantNamed(member)) {
      at(loc);
      return floatConstant(ScalarKind::Float64, *value, true);
    }
  }
  if (module == "numpy" && (isNumpyComplexFunction(member) || operatorUfuncArity(member)))
    return Operand::named(Operand::Kind::Builtin, name);
  if (module == "operator" && isOperatorFunction(member))
    return Operand::named(Operand::Kind::Builtin, name);
  if (module == "math" || module == "numpy") {
    std::string qualified = module + "." + member;
    if (findMathFunction(qualified) || (module == "math" && isLibdeviceOrScaledMath(member)))
      return Operand::named(Operand::Kind::Builtin, qualified);
    if (module == "numpy" && numpyReduction(member))
      return Operand::named(Operand::Kind::Builtin, qualified);
    if (auto kind = module == "numpy" ? scalarKindFromNumpyName(member) : std::nullopt)
      return Operand::named(Operand::Kind::Builtin, "numpy." + std::string(ir::numpyName(*kind)));
    if (auto value = floatConstantNamed(member)) {
      at(loc);
      return floatConstant(ScalarKind::Float64, *value, true);
    }
  }
  throw ir::CompileError(loc, "module '" + module + "' has no attribute '" + member + "'");
}

bool isDim3(const Operand &operand) {
  return operand.kind == Operand::Kind::Module && specialRegisterNamed(operand.name);
}

Operand FunctionLowerer::attribute(const Operand &base, const std::string &attr, const Expr &node) {
  at(node.loc);
  if (base.kind == Operand::Kind::Module) {
    if (auto reg = specialRegisterNamed(base.name)) {
      unsigned dim = attr == "x" ? 0 : attr == "y" ? 1 : attr == "z" ? 2 : 3;
      if (dim == 3)
        throw ir::CompileError(node.loc,
                               base.name + " has no attribute '" + attr + "'; use .x, .y or .z");
      // int64, so that arithmetic on them is 64-bit as Numba's is (it widens int32 to int64):
      // blockIdx.x * blockDim.x + threadIdx.x is right past 2**31 threads, equal to grid(1).
      return Operand::scalar(
          builder_.cast(builder_.specialReg(*reg, dim), ir::Type::scalar(ScalarKind::Int64)));
    }
    if (base.name.starts_with("kaji.") && kajiNamespaceMembers(base.name.substr(5))) {
      std::string qualified = base.name + "." + attr;
      if (!isKajiNamespaceMember(qualified.substr(5)))
        throw ir::CompileError(node.loc, "kaji has no attribute '" + qualified.substr(5) +
                                             "' supported in kernels");
      return Operand::named(Operand::Kind::Builtin, qualified);
    }
    return resolveQualified(base.name + "." + attr, node.loc);
  }
  if (base.kind == Operand::Kind::Namespace) {
    const GlobalValue &module = *base.global;
    auto member = std::find(module.fields.begin(), module.fields.end(), attr);
    if (member == module.fields.end())
      throw ir::CompileError(node.loc, "module '" + module.qualifiedName + "' has no attribute '" +
                                           attr + "'");
    return resolveGlobal(module.elements[size_t(member - module.fields.begin())], node.loc);
  }
  if (std::optional<Operand> member = gridGroupAttribute(base, attr, node))
    return *member;
  if (std::optional<Operand> member = fragmentAttribute(base, attr, node))
    return *member;
  if (base.kind == Operand::Kind::Builtin && base.name == "array.ctypes") {
    if (attr != "data")
      throw ir::CompileError(node.loc, "an array's ctypes has only .data (its address) in "
                                       "kernels, not '" +
                                           attr + "'");
    return Operand::scalar(builder_
                               .create(ir::Opcode::ArrayAddress,
                                       ir::Type::scalar(ScalarKind::UInt64),
                                       {base.elements.front().value})
                               ->result());
  }
  if (base.kind == Operand::Kind::Vector)
    return vectorLane(base, attr, node);
  if (base.kind == Operand::Kind::Tuple)
    if (std::optional<Operand> field = namedTupleField(base, attr))
      return *field;
  // One record's attributes are its fields (an array of records has an array's).
  if (base.kind == Operand::Kind::Array && base.type().isRecordArray() && base.type().ndim() == 0)
    return fieldValue(fieldView(base, attr, node), node.loc);
  if (base.kind == Operand::Kind::Array) {
    ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
    unsigned ndim = base.type().ndim();
    auto perDimension = [&](ir::Opcode opcode) {
      std::vector<Operand> elements;
      for (unsigned d = 0; d < ndim; ++d)
        elements.push_back(
            Operand::scalar(builder_.create(opcode, i64, {base.value}, int64_t(d))->result()));
      return elements;
    };
    if (attr == "shape")
      return Operand::tuple(perDimension(ir::Opcode::ArrayDim));
    if (attr == "strides")
      return Operand::tuple(perDimension(ir::Opcode::ArrayStride));
    if (attr == "ndim")
      return intConstant(ScalarKind::Int64, ndim, true);
    if (attr == "size") {
      // The product of no extents, a 0-d array's size, is 1.
      std::vector<Operand> extents = perDimension(ir::Opcode::ArrayDim);
      if (extents.empty())
        return intConstant(ScalarKind::Int64, 1);
      ir::Value *size = extents.front().value;
      for (size_t d = 1; d < extents.size(); ++d)
        size = builder_.binary(ir::Opcode::Mul, size, extents[d].value);
      return Operand::scalar(size);
    }
    if (attr == "T") {
      std::vector<unsigned> axes(ndim);
      for (unsigned d = 0; d < ndim; ++d)
        axes[d] = ndim - 1 - d;
      return transposed(base, axes, node.loc);
    }
    if (attr == "dtype")
      return Operand::named(Operand::Kind::Builtin,
                            "numpy." + std::string(ir::numpyName(base.type().scalarKind())));
    if (attr == "ctypes") { // numpy's ctypes view: kernels read its .data, the address
      Operand ctypes = Operand::named(Operand::Kind::Builtin, "array.ctypes");
      ctypes.elements.push_back(base);
      return ctypes;
    }
    if ((attr == "real" || attr == "imag") && !base.type().isRecordArray() &&
        !base.type().isVectorArray() && ir::isComplex(base.type().scalarKind()))
      return complexPartView(base, attr == "imag", node.loc);
    if (isArrayMethod(attr)) {
      Operand method = Operand::named(Operand::Kind::Builtin, "array." + attr);
      method.elements.push_back(base);
      return method;
    }
    // numpy's recarray: a field by attribute, after the array's own attributes (`x.value1`).
    if (base.type().isRecordArray() && base.type().record()->field(attr))
      return fieldView(base, attr, node);
  }
  if (base.kind == Operand::Kind::EnumClass) {
    if (const GlobalValue *member = base.global->enumMemberNamed(attr))
      return resolveGlobal(*member, node.loc);
    throw ir::CompileError(node.loc, "enum class '" + base.global->qualifiedName +
                                         "' has no member '" + attr + "'");
  }
  if (base.enumMember && attr == "value") {
    Operand value = base;
    value.enumMember = nullptr;
    return value;
  }
  if (base.isPlainEnumMember())
    throw ir::CompileError(node.loc, "'" + describe(base) + "' has no attribute '" + attr +
                                         "' in kernels (only .value)");
  if (std::optional<Operand> value = numberAttribute(base, attr, node))
    return *value;
  if (base.isScalar() && base.type().isInteger() && attr == "bit_count") {
    Operand method = Operand::named(Operand::Kind::Builtin, "int.bit_count");
    method.elements.push_back(base);
    return method;
  }
  throw ir::CompileError(node.loc,
                         "'" + describe(base) + "' has no attribute '" + attr + "' in kernels");
}

Operand FunctionLowerer::bitCount(const Operand &x, const CallExpr &expr) {
  if (!expr.args.empty() || !expr.keywords.empty())
    throw ir::CompileError(expr.loc, "bit_count() takes no arguments, in '" + unparse(expr) + "'");
  at(expr.loc);
  // |INT_MIN| wraps to itself, whose one set bit is the right count.
  ir::Value *magnitude = x.type().isSignedInteger()
                             ? builder_.create(ir::Opcode::Abs, x.type(), {x.value})->result()
                             : x.value;
  ir::Value *ones =
      builder_.create(ir::Opcode::Bits, x.type(), {magnitude}, ir::BitFunction::Popc)->result();
  return Operand::scalar(builder_.cast(ones, ir::Type::scalar(ScalarKind::Int64)));
}

Operand FunctionLowerer::gridIndex(const CallExpr &expr, bool size) {
  const char *name = size ? "gridsize" : "grid";
  std::optional<int64_t> ndim;
  if (expr.args.size() == 1)
    ndim = constantInt(lower(*expr.args[0]));
  if (!ndim || *ndim < 1 || *ndim > 3) {
    std::string message = std::string("kaji.") + name +
                          "() takes one constant argument, 1, 2 or 3 (the number of dimensions)";
    if (!ndim && expr.args.size() == 1) // Numba's name for a value known only at run time
      message += "; RequireLiteralValue: '" + unparse(*expr.args.front()) + "' is not a constant";
    throw ir::CompileError(expr.loc, message);
  }
  at(expr.loc);
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  std::vector<Operand> elements;
  for (unsigned d = 0; d < unsigned(*ndim); ++d) {
    auto reg = [&](ir::SpecialReg::Kind kind) {
      return builder_.cast(builder_.specialReg(kind, d), i64);
    };
    ir::Value *value =
        size ? builder_.binary(ir::Opcode::Mul, reg(ir::SpecialReg::BlockDim),
                               reg(ir::SpecialReg::GridDim))
             : builder_.binary(ir::Opcode::Add, reg(ir::SpecialReg::ThreadIdx),
                               builder_.binary(ir::Opcode::Mul, reg(ir::SpecialReg::BlockIdx),
                                               reg(ir::SpecialReg::BlockDim)));
    elements.push_back(Operand::scalar(value));
  }
  return elements.size() == 1 ? elements.front() : Operand::tuple(std::move(elements));
}

void requireNumbers(const std::string &function, size_t minArgs, size_t maxArgs,
                    const std::vector<Operand> &args, const CallExpr &expr) {
  if (args.size() < minArgs || args.size() > maxArgs)
    throw ir::CompileError(
        expr.loc, function + "() takes " + std::to_string(minArgs) +
                      (maxArgs > minArgs ? " or " + std::to_string(maxArgs) : std::string()) +
                      " argument" + (maxArgs == 1 ? "" : "s") + ", got " +
                      std::to_string(args.size()));
  for (const Operand &arg : args)
    if (!arg.isScalar())
      throw ir::CompileError(expr.loc, function + "() needs numbers, not '" + describe(arg) +
                                           "', in '" + unparse(expr) + "'");
}

Operand FunctionLowerer::callMath(const std::string &function, const std::vector<Operand> &args,
                                  const CallExpr &expr) {
  const MathFunction fn = *findMathFunction(function);
  requireNumbers(function, fn.arity, fn.kind == MathKind::Log ? 2 : fn.arity, args, expr);
  ScalarType type = args.front().scalarType();
  for (const Operand &arg : args)
    type = promote(type, arg.scalarType());
  bool minMax = fn.kind == MathKind::Minimum || fn.kind == MathKind::Maximum;
  if (minMax || fn.kind == MathKind::Abs) // their result has the argument's type
    for (const Operand &arg : args)
      requireNotFloat8(arg, expr.loc, [&expr] { return unparse(expr); });
  if (involvesComplex(args)) {
    if (fn.kind == MathKind::Abs)
      return Operand::scalar(ComplexArithmetic(at(expr.loc)).abs(args.front().value));
    if (fn.kind == MathKind::PowerOperator)
      return binary(BinaryOperator::Pow, args[0], args[1], expr.loc,
                    [&expr] { return unparse(expr); });
    // numpy's ufuncs take complex numbers: its minimum, maximum, fmin and fmax order them;
    // the others are cmath's functions of math's name (np.arcsin is cmath.asin), and log2,
    // which cmath has not, numpy's. math's functions never take them.
    if (minMax && function.starts_with("numpy.")) {
      bool propagatesNaN = fn.function == Math::Minimum || fn.function == Math::Maximum;
      return Operand::scalar(ComplexArithmetic(at(expr.loc))
                                 .extremum(toComplex(args[0], type.kind),
                                           toComplex(args[1], type.kind),
                                           fn.kind == MathKind::Maximum, propagatesNaN),
                             type.weak);
    }
    if (function.starts_with("numpy.") && fn.arity == 1 &&
        (isCmathFunction(fn.mathName) || fn.function == Math::Log2))
      return callCmath(std::string(fn.mathName), args, expr);
    throw ir::CompileError(expr.loc, function + "() does not take complex numbers ('" +
                                         describe(args.front()) + "' in '" + unparse(expr) +
                                         "'); use cmath");
  }
  at(expr.loc);
  if (fn.kind == MathKind::PowerOperator)
    return binary(BinaryOperator::Pow, args[0], args[1], expr.loc,
                  [&expr] { return unparse(expr); });
  if (fn.kind == MathKind::Abs || minMax) {
    if (type.kind == ScalarKind::Bool)
      type.kind = ScalarKind::Int64;
    if (minMax) // numpy's ufuncs: np.maximum(u16, -1) is NumPy 2's OverflowError
      requireLiteralsFit(type, args[0], args[1], expr.loc, [&expr] { return unparse(expr); });
    std::vector<ir::Value *> operands;
    for (const Operand &arg : args)
      operands.push_back(convert(arg, type.kind));
    ir::Type resultType = ir::Type::scalar(type.kind);
    // On floats each has its own NaN rule (minimum propagates NaN, fmin ignores it).
    if (minMax && ir::isFloat(type.kind))
      return Operand::scalar(builder_.math(*fn.function, resultType, operands), type.weak);
    ir::Opcode opcode = fn.kind == MathKind::Abs       ? ir::Opcode::Abs
                        : fn.kind == MathKind::Minimum ? ir::Opcode::Min
                                                       : ir::Opcode::Max;
    return Operand::scalar(builder_.create(opcode, resultType, operands)->result(), type.weak);
  }
  bool integral = !ir::isFloat(type.kind);
  if (fn.kind == MathKind::ToInteger && integral)
    return Operand::scalar(convert(args.front(), ScalarKind::Int64));
  if (fn.kind == MathKind::Predicate && integral)
    return Operand::scalar(builder_.boolConstant(fn.name == "isfinite"));
  // Integers compute in float64 (as Python and Numba do); float16 and bfloat16 in float32, which
  // every target has math functions for.
  ScalarKind floatKind = integral ? ScalarKind::Float64 : type.kind;
  // nextafter steps by its operands' precision: a float16's step, taken in float32, would
  // round back to the float16 it started from.
  if (fn.function && ir::mathFunction(*fn.function).half == ir::HalfPrecision::Refused &&
      ir::isHalfPrecision(floatKind))
    throw ir::CompileError(expr.loc, function + "() of '" + std::string(ir::numpyName(floatKind)) +
                                         "' is not supported in kernels (float32 and float64 "
                                         "only, as in Numba), in '" +
                                         unparse(expr) + "'");
  if (ir::isHalfPrecision(floatKind))
    floatKind = ScalarKind::Float32;
  ir::Type floatType = ir::Type::scalar(floatKind);
  std::vector<ir::Value *> operands;
  for (const Operand &arg : args)
    operands.push_back(convert(arg, floatKind));
  switch (fn.kind) {
  case MathKind::Power:
    return Operand::scalar(builder_.binary(ir::Opcode::Pow, operands[0], operands[1]));
  case MathKind::Log:
    if (operands.size() == 2)
      return Operand::scalar(builder_.binary(
          ir::Opcode::Div, builder_.math(ir::MathFunctionKind::Log, floatType, {operands[0]}),
          builder_.math(ir::MathFunctionKind::Log, floatType, {operands[1]})));
    return Operand::scalar(builder_.math(ir::MathFunctionKind::Log, floatType, operands));
  case MathKind::Predicate:
    return Operand::scalar(
        builder_.math(*fn.function, ir::Type::scalar(ScalarKind::Bool), operands));
  case MathKind::ToInteger:
    return Operand::scalar(builder_.cast(builder_.math(*fn.function, floatType, operands),
                                         ir::Type::scalar(ScalarKind::Int64)));
  default:
    return Operand::scalar(builder_.math(*fn.function, floatType, operands));
  }
}

// isinstance(value, type): whether a value of `value`'s kaji type is an instance of the type
// object `type` (a Python or numpy scalar type, `tuple`, or a tuple of them), as Numba's typing
// decides it: int is every integer type, float every float type, complex both complex types,
// and a numpy type its own; nullopt when `type` is none of these.
std::optional<bool> FunctionLowerer::isInstance(const Operand &value, const Operand &type) {
  if (type.kind == Operand::Kind::Tuple) {
    bool any = false;
    for (const Operand &element : type.elements) {
      std::optional<bool> matches = isInstance(value, element);
      if (!matches)
        return std::nullopt;
      any = any || *matches;
    }
    return any;
  }
  if (type.kind != Operand::Kind::Builtin)
    return std::nullopt;
  if (type.name == "builtins.tuple")
    return value.kind == Operand::Kind::Tuple;
  std::optional<ScalarKind> kind;
  if (value.isScalar())
    kind = value.scalarType().kind;
  if (type.name == "builtins.int")
    return kind && ir::isInteger(*kind) && *kind != ScalarKind::Bool;
  if (type.name == "builtins.float")
    return kind && ir::isFloat(*kind);
  if (type.name == "builtins.complex")
    return kind && ir::isComplex(*kind);
  if (type.name == "builtins.bool")
    return kind == ScalarKind::Bool;
  if (type.name.starts_with("numpy."))
    if (std::optional<ScalarKind> named = scalarKindFromNumpyName(type.name.substr(6)))
      return kind == named;
  return std::nullopt;
}

Operand FunctionLowerer::callBuiltin(const std::string &name, const CallExpr &expr) {
  std::string display = shortName(name);
  if (name == "kaji.shared.array" || name == "kaji.local.array")
    return staticArray(expr, name == "kaji.shared.array");
  if (name == "kaji.const.array_like")
    return constArray(expr);
  if (name.starts_with("kaji.cg."))
    return callCooperativeGroups(name, expr);
  if (name.starts_with("kaji.wmma."))
    return callMatrixFragments(name, expr);
  if (name.starts_with("kaji.pipeline."))
    return callAsyncCopies(name, expr);
  if (name.starts_with("kaji.wgmma."))
    return callWarpgroupMma(name, expr);
  if (name == "builtins.print")
    return print(expr);
  if (name == "kaji.carray" || name == "kaji.farray")
    return arrayAtPointer(expr, name == "kaji.farray");
  // How many inputs the ufunc `name` takes; 0 for a name that is no ufunc.
  unsigned ufuncArity =
      name.starts_with("numpy.") ? numpyUfuncArity(name.substr(6)).value_or(0) : 0;
  // A ufunc's output array may come as out=.
  bool outKeyword = ufuncArity && expr.keywords.size() == 1 && expr.keywords.front().name == "out";
  if (!expr.keywords.empty() && !outKeyword)
    throw ir::CompileError(expr.keywords.front().loc,
                           display + "() takes no keyword arguments in kernels" +
                               (ufuncArity ? " but out" : ""));
  if (name == "builtins.range" || name == "builtins.enumerate" || name == "builtins.zip")
    throw ir::CompileError(expr.loc,
                           display + "() is supported only as the iterable of a for loop");
  if (name == "kaji.grid" || name == "kaji.gridsize")
    return gridIndex(expr, name == "kaji.gridsize");
  std::vector<Operand> args;
  for (const ExprPtr &arg : expr.args)
    args.push_back(lower(*arg));
  if (outKeyword)
    args.push_back(lower(*expr.keywords.front().value));
  at(expr.loc);
  if (ufuncArity && (outKeyword || args.size() == ufuncArity + 1 ||
                     std::any_of(args.begin(), args.end(), [](const Operand &arg) {
                       return arg.kind == Operand::Kind::Array;
                     })))
    return callUfuncOnArrays(name, ufuncArity, args, expr);
  if (name == "builtins.tuple") { // tuple(t) is t; tuple() the empty tuple
    if (args.empty())
      return Operand::tuple({});
    if (args.size() != 1 || args[0].kind != Operand::Kind::Tuple)
      throw ir::CompileError(expr.loc, "tuple() in kernels takes a tuple (or nothing), not '" +
                                           (args.empty() ? std::string() : describe(args[0])) +
                                           "'");
    return args[0];
  }
  if (name == "builtins.isinstance") {
    if (args.size() != 2)
      throw ir::CompileError(expr.loc, "isinstance() takes 2 arguments (" +
                                           std::to_string(args.size()) + " given)");
    std::optional<bool> matches = isInstance(args[0], args[1]);
    if (!matches)
      throw ir::CompileError(expr.args[1]->loc,
                             "isinstance()'s second argument must be a scalar type (int, float, "
                             "complex, bool, a numpy or kaji type), tuple, or a tuple of them, "
                             "not '" +
                                 describe(args[1]) + "'");
    return intConstant(ScalarKind::Bool, *matches);
  }
  if (name == "cffi.from_buffer") {
    // A C pointer in kernels is an array starting at its address (Signature.h), so the
    // pointer to an array's data (a local or shared array's too) is the array; it must be
    // contiguous, as Numba's is.
    if (args.size() != 1 || args.front().kind != Operand::Kind::Array)
      throw ir::CompileError(expr.loc, "ffi.from_buffer() takes one array argument, in '" +
                                           unparse(expr) + "'");
    const ir::Type &array = args.front().type();
    if (array.layout() == ir::Layout::Any && array.ndim() > 0)
      throw ir::CompileError(expr.args.front()->loc,
                             "from_buffer() unsupported on non-contiguous buffers: '" +
                                 unparse(*expr.args.front()) + "' is " + typeString(array));
    return args.front();
  }
  if (name == "kaji.literal_unroll") {
    // Every loop over a tuple is unrolled (Iteration.cpp): the marker changes nothing.
    if (args.size() != 1 || args.front().kind != Operand::Kind::Tuple)
      throw ir::CompileError(expr.loc,
                             "literal_unroll() takes one tuple in '" + unparse(expr) + "'");
    return args.front();
  }
  if (const ArrayReduction *reduction =
          name.starts_with("numpy.") ? numpyReduction(name.substr(6)) : nullptr) {
    if (args.size() != 1 || args.front().kind != Operand::Kind::Array)
      throw ir::CompileError(expr.loc, display + "() takes one array in kernels (no axis), in '" +
                                           unparse(expr) + "'");
    return reduceArray(*reduction, args.front(), expr);
  }
  if (name.starts_with("kaji.atomic."))
    return atomic(name.substr(12), args, expr);
  if (std::optional<CachedAccess> access =
          name.starts_with("kaji.") ? cachedAccessNamed(name.substr(5)) : std::nullopt)
    return cachedAccess(*access, name.substr(5), args, expr);
  if (std::optional<ir::Type> vector =
          name.starts_with("kaji.") ? vectorTypeNamed(name.substr(5)) : std::nullopt)
    return vectorConstructor(*vector, args, expr);
  if (name.starts_with("kaji.libdevice."))
    return callLibdevice(name.substr(15), args, expr);
  if (name.starts_with("kaji.fp16."))
    return callHalfPrecision(ScalarKind::Float16, name.substr(10), args, expr);
  if (name.starts_with("kaji.bf16."))
    return callHalfPrecision(ScalarKind::BFloat16, name.substr(10), args, expr);
  if (name.starts_with("kaji.fp8."))
    return callFloat8(name.substr(9), args, expr);
  if (name.starts_with("math.") && isLibdeviceOrScaledMath(name.substr(5)))
    return callLibdeviceMath(name.substr(5), args, expr);
  if (name.starts_with("operator."))
    return callOperatorFunction(name.substr(9), args, expr);
  if (name == "builtins.pow") {
    // pow(x, y) is x ** y; Python's three-argument pow (a modulus) Numba has not either.
    if (args.size() != 2)
      throw ir::CompileError(expr.loc, "pow() takes two arguments in kernels (no modulus), in '" +
                                           unparse(expr) + "'");
    return binary(BinaryOperator::Pow, args[0], args[1], expr.loc,
                  [&expr] { return unparse(expr); });
  }
  if (name == "builtins.round")
    return callRound(args, expr);
  if (name == "builtins.complex")
    return complexConstructor(args, expr);
  if (name.starts_with("cmath."))
    return callCmath(name.substr(6), args, expr);
  if (name.starts_with("numpy.") && isNumpyComplexFunction(name.substr(6)))
    return numpyComplexFunction(name.substr(6), args, expr);
  if (name.starts_with("kaji."))
    if (std::optional<Operand> result = callGpuFunction(name.substr(5), args, expr))
      return *result;
  if (name == "builtins.min" || name == "builtins.max") {
    if (args.size() == 1 && args.front().kind == Operand::Kind::Tuple)
      args = std::vector<Operand>(args.front().elements);
    if (args.empty())
      throw ir::CompileError(expr.loc, display + "() expects at least one argument");
    if (args.size() == 1)
      return args.front();
    for (const Operand &arg : args) {
      if (!arg.isScalar() || arg.type().isComplex())
        throw ir::CompileError(expr.loc, display + "() needs real numbers, not '" + describe(arg) +
                                             "', in '" + unparse(expr) + "'");
      requireNotFloat8(arg, expr.loc, [&expr] { return unparse(expr); });
    }
    // Python's min/max, left to right: a later argument replaces the result where it is
    // smaller (larger).
    bool isMin = name == "builtins.min";
    Operand result = args.front();
    for (size_t i = 1; i < args.size(); ++i) {
      // A Python int outside the other operand's integer type (or two Python ints) compares
      // as Python compares it, so the comparison is decided here and the result is the
      // operand Python returns, in its own type: max(u16, -1) is the uint16, min(-7, u16)
      // is -7. Converting the literal to the promoted type would wrap it.
      if (std::optional<bool> replaces = decidedComparison(
              isMin ? ir::CmpPredicate::Lt : ir::CmpPredicate::Gt, args[i], result)) {
        if (*replaces)
          result = args[i];
        continue;
      }
      ScalarType type = promote(result.scalarType(), args[i].scalarType());
      ir::Opcode opcode = type.kind == ScalarKind::Bool ? (isMin ? ir::Opcode::And : ir::Opcode::Or)
                          : isMin                       ? ir::Opcode::Min
                                                        : ir::Opcode::Max;
      result = Operand::scalar(
          builder_.binary(opcode, convert(result, type.kind), convert(args[i], type.kind)),
          type.weak);
    }
    return result;
  }
  if (findMathFunction(name))
    return callMath(name, args, expr);
  if (name.starts_with("numpy.") && operatorUfuncArity(name.substr(6)))
    return callOperatorUfunc(name.substr(6), args, expr);
  if (args.size() != 1)
    throw ir::CompileError(expr.loc, display + "() takes exactly one argument (" +
                                         std::to_string(args.size()) + " given)");
  const Operand &arg = args.front();
  if (name == "builtins.len") {
    if (arg.kind == Operand::Kind::Tuple)
      return intConstant(ScalarKind::Int64, int64_t(arg.elements.size()));
    if (arg.kind == Operand::Kind::Array && arg.type().ndim() == 0)
      throw ir::CompileError(expr.loc, "len() of a 0-d array is undefined (numpy's "
                                       "'len() of unsized object'); use .size in '" +
                                           unparse(expr) + "'");
    if (arg.kind == Operand::Kind::Array)
      return Operand::scalar(builder_
                                 .create(ir::Opcode::ArrayDim, ir::Type::scalar(ScalarKind::Int64),
                                         {arg.value}, int64_t(0))
                                 ->result());
    throw ir::CompileError(expr.loc, "object of type '" + describe(arg) + "' has no len()");
  }
  if (name == "builtins.bool")
    return Operand::scalar(truth(arg, *expr.args.front()));
  if (name == "builtins.float" && arg.kind == Operand::Kind::String) {
    std::optional<double> parsed = parsePythonFloat(arg.name);
    if (!parsed)
      throw ir::CompileError(expr.loc,
                             "could not convert string to float: " + unparse(*expr.args.front()));
    return floatConstant(ScalarKind::Float64, *parsed);
  }
  if (!arg.isScalar())
    throw ir::CompileError(expr.loc, display + "() needs a number, not '" + describe(arg) +
                                         "', in '" + unparse(expr) + "'");
  if (name == "builtins.abs")
    return callMath("numpy.abs", args, expr);
  if (name == "builtins.int")
    return Operand::scalar(convert(arg, ScalarKind::Int64));
  if (name == "builtins.float")
    return Operand::scalar(convert(arg, ScalarKind::Float64));
  if (name.starts_with("numpy."))
    if (auto kind = scalarKindFromNumpyName(name.substr(6)))
      return Operand::scalar(convert(arg, *kind));
  throw ir::CompileError(expr.loc, "'" + display + "' cannot be called in kernels");
}

} // namespace kaji::frontend
