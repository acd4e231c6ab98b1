// cuda.fp16's and cuda.bf16's conversions (HalfPrecisionConversions.h): their names, and
// their lowering. A conversion to float16 or bfloat16 is correctly rounded in the mode its
// name gives, from every source type, as CUDA's __int2half_rz and the others are: the source
// is first rounded to float32 by rounding to odd (truncation with the last bit set when bits
// were lost), which keeps every later rounding to a format of 22 bits or fewer exact; then
// float32 rounds to nearest even, and a directed mode steps that result one unit toward the
// source where it overshot. Every step is integer arithmetic on the bits or a comparison, so
// every target computes the same bits without instructions of its own.
#include "HalfPrecisionConversions.h"

#include "FunctionLowerer.h"

#include <algorithm>
#include <utility>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

struct RoundingSuffix {
  Rounding rounding;
  std::string_view suffix;
};
constexpr RoundingSuffix kNearestOnly[] = {{Rounding::Nearest, ""}};
constexpr RoundingSuffix kFourModes[] = {{Rounding::Nearest, "rn"},
                                         {Rounding::TowardZero, "rz"},
                                         {Rounding::Down, "rd"},
                                         {Rounding::Up, "ru"}};
constexpr RoundingSuffix kFloat32Modes[] = {{Rounding::Nearest, ""},
                                            {Rounding::Nearest, "rn"},
                                            {Rounding::TowardZero, "rz"},
                                            {Rounding::Down, "rd"},
                                            {Rounding::Up, "ru"}};
constexpr RoundingSuffix kTowardZeroOnly[] = {{Rounding::TowardZero, "rz"}};

constexpr ScalarKind kWideIntegers[] = {ScalarKind::Int16,  ScalarKind::UInt16, ScalarKind::Int32,
                                        ScalarKind::UInt32, ScalarKind::Int64,  ScalarKind::UInt64};

// CUDA C++'s names of the types, which cuda.fp16's conversions are spelled with (and
// cuda.bf16's second spelling).
std::string_view cudaName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Int8:
    return "char";
  case ScalarKind::UInt8:
    return "uchar";
  case ScalarKind::Int16:
    return "short";
  case ScalarKind::UInt16:
    return "ushort";
  case ScalarKind::Int32:
    return "int";
  case ScalarKind::UInt32:
    return "uint";
  case ScalarKind::Int64:
    return "ll";
  case ScalarKind::UInt64:
    return "ull";
  case ScalarKind::Float32:
    return "float";
  case ScalarKind::Float64:
    return "double";
  case ScalarKind::Float16:
    return "half";
  default:
    return "bfloat16";
  }
}

// cuda.fp16 exports CUDA C++'s names with their underscores ("__int2half_rz"); cuda.bf16
// exports numpy-style ones ("int32_to_bfloat16_rz") and has CUDA's without the underscores
// ("int2bfloat16_rz"), which Numba's bf16 module imports under those names.
std::vector<std::string> spellings(ScalarKind half, const HalfConversion &conversion,
                                   std::string_view suffix) {
  auto spelled = [&](bool cudaSpelling) {
    auto typeName = [cudaSpelling](ScalarKind kind) {
      return cudaSpelling ? cudaName(kind) : ir::numpyName(kind);
    };
    std::string name(cudaSpelling && half == ScalarKind::Float16 ? "__" : "");
    name.append(typeName(conversion.from));
    name.append(conversion.reinterpret ? "_as_" : cudaSpelling ? "2" : "_to_");
    name.append(typeName(conversion.to));
    if (!suffix.empty())
      name.append("_").append(suffix);
    return name;
  };
  if (half == ScalarKind::Float16)
    return {spelled(true)};
  return {spelled(false), spelled(true)};
}

using NamedConversion = std::pair<std::string, HalfConversion>;

// Numba's list, the same for both modules: to and from float32 (to it in every mode), from
// float64, to and from the integers of 16 to 64 bits in every mode, to the 8-bit ones toward
// zero, and the bits of a 16-bit integer.
std::vector<NamedConversion> conversionsOf(ScalarKind half) {
  std::vector<NamedConversion> all;
  auto named = [&](const HalfConversion &conversion, std::string_view suffix) {
    for (std::string &name : spellings(half, conversion, suffix))
      all.emplace_back(std::move(name), conversion);
  };
  auto add = [&](ScalarKind from, ScalarKind to, auto &suffixes) {
    for (const RoundingSuffix &mode : suffixes)
      named(HalfConversion{from, to, mode.rounding, false}, mode.suffix);
  };
  add(ScalarKind::Float32, half, kFloat32Modes);
  add(ScalarKind::Float64, half, kNearestOnly);
  add(half, ScalarKind::Float32, kNearestOnly);
  for (ScalarKind integer : kWideIntegers) {
    add(integer, half, kFourModes);
    add(half, integer, kFourModes);
  }
  add(half, ScalarKind::Int8, kTowardZeroOnly);
  add(half, ScalarKind::UInt8, kTowardZeroOnly);
  for (ScalarKind bits : {ScalarKind::Int16, ScalarKind::UInt16}) {
    named(HalfConversion{half, bits, Rounding::Nearest, true}, "");
    named(HalfConversion{bits, half, Rounding::Nearest, true}, "");
  }
  return all;
}

const std::vector<NamedConversion> &conversionTable(ScalarKind half) {
  static const std::vector<NamedConversion> float16 = conversionsOf(ScalarKind::Float16);
  static const std::vector<NamedConversion> bfloat16 = conversionsOf(ScalarKind::BFloat16);
  return half == ScalarKind::Float16 ? float16 : bfloat16;
}

// The float32 function that rounds a half-precision value to an integral one in a mode.
ir::MathFunctionKind integralRounding(Rounding rounding) {
  switch (rounding) {
  case Rounding::TowardZero:
    return ir::MathFunctionKind::Trunc;
  case Rounding::Down:
    return ir::MathFunctionKind::Floor;
  case Rounding::Up:
    return ir::MathFunctionKind::Ceil;
  default:
    return ir::MathFunctionKind::RoundEven;
  }
}

} // namespace

std::optional<HalfConversion> halfConversion(ScalarKind half, std::string_view name) {
  const std::vector<NamedConversion> &table = conversionTable(half);
  auto found = std::find_if(table.begin(), table.end(),
                            [name](const NamedConversion &entry) { return entry.first == name; });
  if (found == table.end())
    return std::nullopt;
  return found->second;
}

const std::vector<std::string> &halfConversionNames(ScalarKind half) {
  static const auto namesOf = [](ScalarKind kind) {
    std::vector<std::string> names;
    for (const NamedConversion &entry : conversionTable(kind))
      names.push_back(entry.first);
    return names;
  };
  static const std::vector<std::string> float16 = namesOf(ScalarKind::Float16);
  static const std::vector<std::string> bfloat16 = namesOf(ScalarKind::BFloat16);
  return half == ScalarKind::Float16 ? float16 : bfloat16;
}

Operand FunctionLowerer::callHalfConversion(const HalfConversion &conversion,
                                            const std::string &display,
                                            const std::vector<Operand> &args,
                                            const CallExpr &expr) {
  if (args.size() != 1)
    throw ir::CompileError(expr.loc, display + "() takes 1 argument (" +
                                         std::to_string(args.size()) + " given)");
  const Operand &arg = args[0];
  ScalarKind from = conversion.from;
  std::string fromName(ir::numpyName(from));
  // The argument is converted to the parameter's type as a C++ call converts it (an int16
  // to bfloat16 by value, for bfloat16_as_int16), but a float never becomes an integer.
  bool accepted = arg.isScalar() && !ir::isComplex(arg.scalarType().kind) &&
                  (!ir::isInteger(from) || !ir::isFloat(arg.scalarType().kind));
  if (!accepted)
    throw ir::CompileError(expr.args[0]->loc, display + "() takes " +
                                                  (fromName.starts_with("int") ? "an " : "a ") +
                                                  fromName + " value, not '" + describe(arg) + "'");
  at(expr.loc);
  ir::Value *value = convert(arg, from);
  ir::Type to = ir::Type::scalar(conversion.to);
  if (conversion.reinterpret)
    return Operand::scalar(builder_.bitcast(value, to));
  if (!ir::isHalfPrecision(conversion.to)) {
    // Exact in float32 for every half-precision value; out of range saturates and NaN gives
    // 0, as kaji's float-to-integer conversions (and CUDA's cvt) do.
    ir::Value *wide = builder_.cast(value, ir::Type::scalar(ScalarKind::Float32));
    if (conversion.to == ScalarKind::Float32)
      return Operand::scalar(wide);
    ir::Value *integral =
        builder_.math(integralRounding(conversion.rounding), wide->type(), {wide});
    return Operand::scalar(builder_.cast(integral, to));
  }
  ir::Value *single = from == ScalarKind::Float32 ? value
                      : ir::isInteger(from)       ? integerToFloat32RoundedToOdd(value)
                                                  : float64ToFloat32RoundedToOdd(value);
  return Operand::scalar(float32ToHalf(single, conversion.to, conversion.rounding));
}

// The float32 nearest to x (float64), or the one next to it toward zero with its last bit
// set when that is not x: round to odd.
ir::Value *FunctionLowerer::float64ToFloat32RoundedToOdd(ir::Value *x) {
  ir::Type u32 = ir::Type::scalar(ScalarKind::UInt32);
  ir::Value *nearest = builder_.cast(x, ir::Type::scalar(ScalarKind::Float32));
  ir::Value *back = builder_.cast(nearest, x->type());
  ir::Value *overshot = builder_.cmp(ir::CmpPredicate::Gt, builder_.unary(ir::Opcode::Abs, back),
                                     builder_.unary(ir::Opcode::Abs, x));
  // One unit less in magnitude is the bits less one (float bits are sign and magnitude; a
  // value that overshot is not zero).
  ir::Value *truncated = builder_.binary(ir::Opcode::Sub, builder_.bitcast(nearest, u32),
                                         builder_.cast(overshot, u32));
  ir::Value *inexact = builder_.cmp(ir::CmpPredicate::Ne, back, x);
  return builder_.bitcast(builder_.binary(ir::Opcode::Or, truncated, builder_.cast(inexact, u32)),
                          ir::Type::scalar(ScalarKind::Float32));
}

// An integer of any width as float32 rounded to odd, built from its bits: the magnitude's
// leading 24 bits are the significand, and any lower bit set makes its last bit 1.
ir::Value *FunctionLowerer::integerToFloat32RoundedToOdd(ir::Value *x) {
  ir::Type u64 = ir::Type::scalar(ScalarKind::UInt64);
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  auto u = [&](int64_t value) { return builder_.intConstant(u64, value); };
  auto i = [&](int64_t value) { return builder_.intConstant(i64, value); };
  auto binary = [&](ir::Opcode op, ir::Value *a, ir::Value *b) {
    return builder_.binary(op, a, b);
  };
  ir::ScalarKind kind = x->type().scalarKind();
  ir::Value *negative = nullptr;
  ir::Value *magnitude = builder_.cast(builder_.cast(x, i64), u64);
  if (ir::isSigned(kind)) {
    negative = builder_.cmp(ir::CmpPredicate::Lt, x, builder_.intConstant(x->type(), 0));
    magnitude = builder_.select(negative, binary(ir::Opcode::Sub, u(0), magnitude), magnitude);
  }
  ir::Value *leadingZeros =
      builder_.create(ir::Opcode::Bits, u64, {magnitude}, ir::BitFunction::Clz)->result();
  ir::Value *exponent = binary(ir::Opcode::Sub, i(63), builder_.cast(leadingZeros, i64));
  ir::Value *dropped =
      builder_.cast(binary(ir::Opcode::Max, binary(ir::Opcode::Sub, exponent, i(23)), i(0)), u64);
  ir::Value *raised =
      builder_.cast(binary(ir::Opcode::Max, binary(ir::Opcode::Sub, i(23), exponent), i(0)), u64);
  ir::Value *significand =
      binary(ir::Opcode::Shl, binary(ir::Opcode::Shr, magnitude, dropped), raised);
  ir::Value *lostBits =
      binary(ir::Opcode::And, magnitude,
             binary(ir::Opcode::Sub, binary(ir::Opcode::Shl, u(1), dropped), u(1)));
  ir::Value *sticky = builder_.cast(builder_.cmp(ir::CmpPredicate::Ne, lostBits, u(0)), u64);
  // The significand's leading bit (bit 23) carries into the biased exponent's field.
  ir::Value *biased = builder_.cast(binary(ir::Opcode::Add, exponent, i(126)), u64);
  ir::Value *bits =
      binary(ir::Opcode::Or,
             binary(ir::Opcode::Add, binary(ir::Opcode::Shl, biased, u(23)), significand), sticky);
  if (negative)
    bits =
        binary(ir::Opcode::Or, bits, binary(ir::Opcode::Shl, builder_.cast(negative, u64), u(31)));
  bits = builder_.select(builder_.cmp(ir::CmpPredicate::Eq, magnitude, u(0)), u(0), bits);
  return builder_.bitcast(builder_.cast(bits, ir::Type::scalar(ScalarKind::UInt32)),
                          ir::Type::scalar(ScalarKind::Float32));
}

// x (float32) rounded to `half` in `rounding`: the nearest even one, stepped one unit toward x
// when the mode needs a value on x's other side. Stepping is one more or one less in the
// bits' magnitude: from the largest finite value to infinity and back, across subnormals.
ir::Value *FunctionLowerer::float32ToHalf(ir::Value *x, ScalarKind half, Rounding rounding) {
  ir::Type halfType = ir::Type::scalar(half);
  ir::Value *nearest = builder_.cast(x, halfType);
  if (rounding == Rounding::Nearest)
    return nearest;
  ir::Value *back = builder_.cast(nearest, x->type());
  ir::Value *backMagnitude = builder_.unary(ir::Opcode::Abs, back);
  ir::Value *magnitude = builder_.unary(ir::Opcode::Abs, x);
  ir::Value *wrongSide =
      rounding == Rounding::TowardZero
          ? builder_.cmp(ir::CmpPredicate::Gt, backMagnitude, magnitude)
          : builder_.cmp(rounding == Rounding::Down ? ir::CmpPredicate::Gt : ir::CmpPredicate::Lt,
                         back, x);
  ir::Value *awayFromZero = builder_.cmp(ir::CmpPredicate::Lt, backMagnitude, magnitude);
  ir::Type u16 = ir::Type::scalar(ScalarKind::UInt16);
  ir::Value *step = builder_.select(
      wrongSide,
      builder_.select(awayFromZero, builder_.intConstant(u16, 1), builder_.intConstant(u16, -1)),
      builder_.intConstant(u16, 0));
  return builder_.bitcast(builder_.binary(ir::Opcode::Add, builder_.bitcast(nearest, u16), step),
                          halfType);
}

} // namespace kaji::frontend
