// 8-bit floats (kaji/frontend/Float8.h): their conversions to and from the other scalars, and
// kaji.fp8's functions. A conversion to float8_e4m3fn or float8_e5m2 rounds to nearest even
// and saturates at the largest finite value (infinity too), as CUDA's __nv_fp8_e4m3(x) and
// __nv_fp8_e5m2(x) do; one to float8_e8m0fnu rounds the magnitude up to a power of two and
// saturates, as __nv_fp8_e8m0(x). NaN gives NaN. Every step is integer arithmetic on
// float32's bits, comparisons and selects, so every target computes the same bits without
// instructions of its own. A source wider than float32 is first rounded to float32 by
// rounding to odd (HalfPrecisionConversions.cpp), which keeps the one rounding to 8 bits exact.
#include "FunctionLowerer.h"

#include "kaji/frontend/Float8.h"

#include <limits>

namespace kaji::frontend {
namespace {

using ir::CmpPredicate;
using ir::Opcode;
using ir::ScalarKind;

// uint32 arithmetic on float32's bits.
class Bits32 {
public:
  explicit Bits32(ir::Builder &builder) : builder_(builder) {}

  static ir::Type type() { return ir::Type::scalar(ScalarKind::UInt32); }
  ir::Value *constant(uint32_t value) { return builder_.intConstant(type(), int64_t(value)); }
  ir::Value *operator()(Opcode op, ir::Value *a, ir::Value *b) { return builder_.binary(op, a, b); }
  ir::Value *operator()(Opcode op, ir::Value *a, uint32_t b) { return (*this)(op, a, constant(b)); }
  ir::Value *is(CmpPredicate p, ir::Value *a, ir::Value *b) { return builder_.cmp(p, a, b); }
  ir::Value *is(CmpPredicate p, ir::Value *a, uint32_t b) { return is(p, a, constant(b)); }
  ir::Value *count(ir::Value *flag) { return builder_.cast(flag, type()); }
  ir::Value *pick(ir::Value *condition, ir::Value *a, ir::Value *b) {
    return builder_.select(condition, a, b);
  }
  ir::Value *pick(ir::Value *condition, uint32_t a, ir::Value *b) {
    return pick(condition, constant(a), b);
  }
  ir::Value *both(ir::Value *a, ir::Value *b) { return builder_.binary(Opcode::And, a, b); }
  ir::Value *either(ir::Value *a, ir::Value *b) { return builder_.binary(Opcode::Or, a, b); }

  // Whether dropping `rest` (the bits below the kept ones, `half` their midpoint) rounds
  // `kept` up: to nearest, ties to even.
  ir::Value *roundsUp(ir::Value *rest, ir::Value *half, ir::Value *kept) {
    return either(is(CmpPredicate::Gt, rest, half),
                  both(is(CmpPredicate::Eq, rest, half),
                       is(CmpPredicate::Ne, (*this)(Opcode::And, kept, 1), 0u)));
  }

private:
  ir::Builder &builder_;
};

// A format of sign, exponent and fraction bits (float8_e4m3fn, float8_e5m2).
struct SmallFloat {
  unsigned fractionBits;
  unsigned bias;
  uint32_t largest;      // its largest finite value's bits
  uint32_t beyond;       // the bits of a value beyond that without saturation: inf or NaN
  uint32_t overflowFrom; // float32 bits from which a magnitude rounds beyond the largest value
};

// e4m3: 464 (448 and half a unit) is a tie that rounds to 448, its even neighbour; e5m2:
// 61440 (57344 and half a unit) rounds to the odd code after 57344's, infinity's.
constexpr SmallFloat kE4M3{3, 7, 0x7E, 0x7F, 0x43E80001};
constexpr SmallFloat kE5M2{2, 15, 0x7B, 0x7C, 0x47700000};
constexpr uint32_t kFloat32Infinity = 0x7F800000;
constexpr uint32_t kFloat8NaN = 0x7F; // e4m3's and e5m2's (CUDA's canonical NaN)

// float32 `x`'s bits as `format`'s (uint32): to nearest even; beyond the largest finite
// value, that value where `saturate` (bool) holds, else `format.beyond`.
ir::Value *smallFloatBits(ir::Builder &builder, ir::Value *x, const SmallFloat &format,
                          ir::Value *saturate) {
  Bits32 u(builder);
  unsigned dropped = 23 - format.fractionBits;
  uint32_t smallestNormal = (127 + 1 - format.bias) << 23;
  uint32_t halfSmallestSubnormal = (127 - format.bias - format.fractionBits) << 23;
  ir::Value *bits = builder.bitcast(x, Bits32::type());
  ir::Value *sign = u(Opcode::And, u(Opcode::Shr, bits, 24), 0x80);
  ir::Value *magnitude = u(Opcode::And, bits, 0x7FFFFFFF);
  ir::Value *exponentField = u(Opcode::Shr, magnitude, 23);
  ir::Value *fraction =
      u(Opcode::And, u(Opcode::Shr, magnitude, dropped), (1u << format.fractionBits) - 1);
  // Normal: the exponent rebiased, the fraction's leading bits, rounded (a carry goes into
  // the exponent, as it should).
  ir::Value *exponent = u(Opcode::Sub, exponentField, 127 - format.bias);
  ir::Value *truncated = u(Opcode::Or, u(Opcode::Shl, exponent, format.fractionBits), fraction);
  ir::Value *half = u.constant(1u << (dropped - 1));
  ir::Value *normal =
      u(Opcode::Add, truncated,
        u.count(u.roundsUp(u(Opcode::And, magnitude, (1u << dropped) - 1), half, truncated)));
  // Subnormal: the significand (its leading 1 made explicit) shifted right by how far the
  // exponent is below the smallest normal one.
  ir::Value *shift = u(Opcode::Sub, u.constant(127 + 1 - format.bias), exponentField);
  ir::Value *kept = u(Opcode::Shr, u(Opcode::Or, fraction, 1u << format.fractionBits), shift);
  ir::Value *shiftedHalf = u(Opcode::Shl, half, shift);
  ir::Value *rest = u(Opcode::And, u(Opcode::Or, magnitude, 0x800000),
                      u(Opcode::Sub, u(Opcode::Shl, shiftedHalf, 1), 1));
  ir::Value *subnormal = u(Opcode::Add, kept, u.count(u.roundsUp(rest, shiftedHalf, kept)));
  ir::Value *finite =
      u.pick(u.is(CmpPredicate::Ge, magnitude, smallestNormal), normal,
             u.pick(u.is(CmpPredicate::Le, magnitude, halfSmallestSubnormal), 0u, subnormal));
  ir::Value *overflow = u.is(CmpPredicate::Ge, magnitude, format.overflowFrom);
  ir::Value *saturated = u.pick(saturate, format.largest, u.constant(format.beyond));
  ir::Value *withSign = u(Opcode::Or, u.pick(overflow, saturated, finite), sign);
  return u.pick(u.is(CmpPredicate::Gt, magnitude, kFloat32Infinity), kFloat8NaN, withSign);
}

// float32 `x`'s magnitude as float8_e8m0fnu's bits (uint32), the power of two at or above it
// where `roundUp` (bool) holds, at or below it otherwise, within 2^-127 .. 2^127; beyond
// that, 2^127 where `saturate` holds, else NaN. CUDA's conversions drop the sign too.
ir::Value *e8m0Bits(ir::Builder &builder, ir::Value *x, ir::Value *saturate, ir::Value *roundUp) {
  Bits32 u(builder);
  ir::Value *magnitude = u(Opcode::And, builder.bitcast(x, Bits32::type()), 0x7FFFFFFF);
  ir::Value *exponentField = u(Opcode::Shr, magnitude, 23);
  ir::Value *fraction = u(Opcode::And, magnitude, 0x7FFFFF);
  // A subnormal float32 is at most 2^-126; above 2^-127 (fraction 2^22) it rounds up to it.
  ir::Value *up =
      u.pick(u.is(CmpPredicate::Eq, exponentField, 0u),
             u.count(u.is(CmpPredicate::Gt, fraction, 0x400000)),
             u(Opcode::Add, exponentField, u.count(u.is(CmpPredicate::Ne, fraction, 0u))));
  ir::Value *code = u.pick(roundUp, up, exponentField);
  ir::Value *beyond = u.pick(saturate, 0xFE, u.constant(0xFF));
  ir::Value *result = u.pick(u.is(CmpPredicate::Ge, code, 255), beyond, code);
  return u.pick(u.is(CmpPredicate::Gt, magnitude, kFloat32Infinity), 0xFF, result);
}

ir::Value *asUint8(ir::Builder &builder, ir::Value *bits) {
  return builder.cast(bits, ir::Type::scalar(ScalarKind::UInt8));
}

enum class Float8Function { FloatToFp8, DoubleToFp8, FloatToE8M0, DoubleToE8M0 };

struct NamedFunction {
  std::string_view name;
  Float8Function function;
};
constexpr NamedFunction kFunctions[] = {
    {"cvt_float_to_fp8", Float8Function::FloatToFp8},
    {"cvt_double_to_fp8", Float8Function::DoubleToFp8},
    {"cvt_float_to_e8m0", Float8Function::FloatToE8M0},
    {"cvt_double_to_e8m0", Float8Function::DoubleToE8M0},
};

// Numba's and CUDA's enum values of the modes.
constexpr int64_t kInterpretationE4M3 = 0; // fp8_interpretation_t.E4M3 (else E5M2)
constexpr int64_t kSaturationNone = 0;     // saturation_t.NOSAT (else SATFINITE)
constexpr int64_t kRoundTowardZero = 1;    // cudaRoundMode.cudaRoundZero (else cudaRoundPosInf)

} // namespace

const std::vector<std::string_view> &float8FunctionNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const NamedFunction &entry : kFunctions)
      all.push_back(entry.name);
    return all;
  }();
  return names;
}

ir::Value *FunctionLowerer::float32RoundedToOdd(ir::Value *x) {
  ScalarKind kind = x->type().scalarKind();
  if (kind == ScalarKind::Float64)
    return float64ToFloat32RoundedToOdd(x);
  if (ir::isInteger(kind) && ir::bitWidth(kind) > 24)
    return integerToFloat32RoundedToOdd(x);
  return builder_.cast(x, ir::Type::scalar(ScalarKind::Float32)); // exact
}

ir::Value *FunctionLowerer::float8ToFloat32(ir::Value *x) {
  ScalarKind kind = x->type().scalarKind();
  Bits32 u(builder_);
  ir::Type f32 = ir::Type::scalar(ScalarKind::Float32);
  ir::Type u16 = ir::Type::scalar(ScalarKind::UInt16);
  ir::Type f16 = ir::Type::scalar(ScalarKind::Float16);
  ir::Value *bits =
      builder_.cast(builder_.bitcast(x, ir::Type::scalar(ScalarKind::UInt8)), Bits32::type());
  if (kind == ScalarKind::Float8E5M2) // float16's upper byte
    return builder_.cast(builder_.bitcast(builder_.cast(u(Opcode::Shl, bits, 8), u16), f16), f32);
  if (kind == ScalarKind::Float8E8M0) {
    ir::Value *power = u.pick(u.is(CmpPredicate::Eq, bits, 0u), 0x400000, // 2^-127, subnormal
                              u(Opcode::Shl, bits, 23));
    return builder_.bitcast(u.pick(u.is(CmpPredicate::Eq, bits, 0xFF), 0x7FC00000, power), f32);
  }
  // e4m3's magnitude bits shifted into float16's place read 2^8 times too small (float16's
  // exponent bias is 8 more), subnormals too.
  ir::Value *magnitudeBits = u(Opcode::And, bits, 0x7F);
  ir::Value *scaled = builder_.cast(
      builder_.bitcast(builder_.cast(u(Opcode::Shl, magnitudeBits, 7), u16), f16), f32);
  ir::Value *magnitude = builder_.binary(Opcode::Mul, scaled, builder_.floatConstant(f32, 256.0));
  ir::Value *value = builder_.select(u.is(CmpPredicate::Ne, u(Opcode::And, bits, 0x80), 0u),
                                     builder_.unary(Opcode::Neg, magnitude), magnitude);
  return builder_.select(u.is(CmpPredicate::Eq, magnitudeBits, 0x7F),
                         builder_.floatConstant(f32, std::numeric_limits<double>::quiet_NaN()),
                         value);
}

ir::Value *FunctionLowerer::float8Bits(ir::Value *single, ScalarKind format, ir::Value *saturate,
                                       ir::Value *roundUp) {
  if (format == ScalarKind::Float8E8M0)
    return asUint8(builder_, e8m0Bits(builder_, single, saturate, roundUp));
  return asUint8(
      builder_,
      smallFloatBits(builder_, single, format == ScalarKind::Float8E4M3 ? kE4M3 : kE5M2, saturate));
}

ir::Value *FunctionLowerer::convertFloat8(const Operand &value, ScalarKind to) {
  if (ir::isFloat8(value.type().scalarKind())) {
    ir::Value *single = float8ToFloat32(value.value);
    return to == ScalarKind::Float32 ? single : convert(Operand::scalar(single), to);
  }
  ir::Value *always = builder_.boolConstant(true);
  return builder_.bitcast(float8Bits(float32RoundedToOdd(value.value), to, always, always),
                          ir::Type::scalar(to));
}

void FunctionLowerer::requireNotFloat8(const Operand &operand, const Location &loc,
                                       const std::function<std::string()> &source) {
  if (operand.isScalar() && ir::isFloat8(operand.type().scalarKind()))
    throw ir::CompileError(loc, "a " + describe(operand) +
                                    " value only converts (as CUDA's 8-bit floats): write "
                                    "float32(x) to compute with it, in '" +
                                    source() + "'");
}

Operand FunctionLowerer::callFloat8(const std::string &name, const std::vector<Operand> &args,
                                    const CallExpr &expr) {
  const NamedFunction *entry = nullptr;
  for (const NamedFunction &candidate : kFunctions)
    if (candidate.name == name)
      entry = &candidate;
  if (!entry)
    throw ir::CompileError(expr.loc, "kaji.fp8 has no function '" + name + "'");
  requireNumbers("fp8." + name, 3, 3, args, expr);
  for (const Operand &arg : args)
    requireNotFloat8(arg, expr.loc, [&expr] { return unparse(expr); });
  at(expr.loc);
  bool fromDouble = entry->function == Float8Function::DoubleToFp8 ||
                    entry->function == Float8Function::DoubleToE8M0;
  ir::Value *x = convert(args[0], fromDouble ? ScalarKind::Float64 : ScalarKind::Float32);
  ir::Value *single = fromDouble ? float64ToFloat32RoundedToOdd(x) : x;
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  auto modeIsNot = [&](const Operand &mode, int64_t value) {
    return builder_.cmp(CmpPredicate::Ne, convert(mode, ScalarKind::Int64),
                        builder_.intConstant(i64, value));
  };
  ir::Value *saturate = modeIsNot(args[1], kSaturationNone);
  if (entry->function == Float8Function::FloatToE8M0 ||
      entry->function == Float8Function::DoubleToE8M0)
    return Operand::scalar(
        float8Bits(single, ScalarKind::Float8E8M0, saturate, modeIsNot(args[2], kRoundTowardZero)));
  ir::Value *nearest = builder_.boolConstant(true); // e4m3 and e5m2 round to nearest only
  ir::Value *e4m3 = float8Bits(single, ScalarKind::Float8E4M3, saturate, nearest);
  ir::Value *e5m2 = float8Bits(single, ScalarKind::Float8E5M2, saturate, nearest);
  return Operand::scalar(builder_.select(modeIsNot(args[2], kInterpretationE4M3), e5m2, e4m3));
}

} // namespace kaji::frontend
