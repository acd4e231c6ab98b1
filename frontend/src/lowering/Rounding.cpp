// Python's round(): round(x) is the nearest int, ties to even; round(x, ndigits) a float
// rounded to ndigits decimal digits the way Numba computes it (CPython's classic algorithm:
// scale by a power of ten, round half to even, scale back; x itself where scaling overflows).
#include "FunctionLowerer.h"

namespace kaji::frontend {

using ir::ScalarKind;

Operand FunctionLowerer::callRound(const std::vector<Operand> &args, const CallExpr &expr) {
  requireNumbers("round", 1, 2, args, expr);
  const Operand &x = args[0];
  bool integral = !x.type().isFloat();
  if (args.size() == 1) {
    if (integral)
      return x;
    ScalarKind kind =
        ir::isHalfPrecision(x.type().scalarKind()) ? ScalarKind::Float32 : x.type().scalarKind();
    ir::Value *value = convert(x, kind);
    return Operand::scalar(
        builder_.cast(builder_.math(ir::MathFunctionKind::RoundEven, value->type(), {value}),
                      ir::Type::scalar(ScalarKind::Int64)));
  }
  if (integral)
    throw ir::CompileError(expr.loc, "round() with ndigits needs a float, not '" + describe(x) +
                                         "', in '" + unparse(expr) + "'");
  if (args[1].type().isFloat())
    throw ir::CompileError(expr.args[1]->loc, "round()'s ndigits must be an integer, not '" +
                                                  describe(args[1]) + "', in '" + unparse(expr) +
                                                  "'");
  requireNarrow(args[1], expr.args[1]->loc, [&expr] { return unparse(expr); });
  ir::Type f64 = ir::Type::scalar(ScalarKind::Float64);
  ir::Value *value = convert(x, ScalarKind::Float64);
  ir::Value *digits = convert(args[1], ScalarKind::Int64);
  auto real = [&](double v) { return builder_.floatConstant(f64, v); };
  auto integer = [&](int64_t v) { return builder_.intConstant(digits->type(), v); };
  auto power = [&](ir::Value *exponent) {
    return builder_.binary(ir::Opcode::Pow, real(10), builder_.cast(exponent, f64));
  };
  auto roundHalfAway = [&](ir::Value *v) {
    return builder_.math(ir::MathFunctionKind::Round, f64, {v});
  };

  // 10**ndigits overflows past 22 digits; it is applied in two steps then (1e22 is exact).
  ir::Value *nonNegative = builder_.cmp(ir::CmpPredicate::Ge, digits, integer(0));
  ir::Value *beyond22 = builder_.cmp(ir::CmpPredicate::Gt, digits, integer(22));
  ir::Value *negated = builder_.create(ir::Opcode::Neg, digits->type(), {digits})->result();
  ir::Value *firstExponent =
      builder_.select(beyond22, builder_.binary(ir::Opcode::Sub, digits, integer(22)),
                      builder_.select(nonNegative, digits, negated));
  ir::Value *pow1 = power(firstExponent);
  ir::Value *pow2 = builder_.select(beyond22, real(1e22), real(1));
  ir::Value *scaledUp =
      builder_.binary(ir::Opcode::Mul, builder_.binary(ir::Opcode::Mul, value, pow1), pow2);
  ir::Value *scaled =
      builder_.select(nonNegative, scaledUp, builder_.binary(ir::Opcode::Div, value, pow1));
  // Round half away from zero, then make ties even.
  ir::Value *rounded = roundHalfAway(scaled);
  ir::Value *distance = builder_.math(ir::MathFunctionKind::FAbs, f64,
                                      {builder_.binary(ir::Opcode::Sub, scaled, rounded)});
  ir::Value *even = builder_.binary(
      ir::Opcode::Mul, real(2), roundHalfAway(builder_.binary(ir::Opcode::Div, scaled, real(2))));
  rounded = builder_.select(builder_.cmp(ir::CmpPredicate::Eq, distance, real(0.5)), even, rounded);
  // A zero keeps x's sign, also where 10**-ndigits is infinite (0 * inf would be NaN).
  ir::Value *signedZero = builder_.math(ir::MathFunctionKind::CopySign, f64, {real(0), value});
  ir::Value *scaledBack = builder_.select(
      builder_.cmp(ir::CmpPredicate::Eq, rounded, real(0)), signedZero,
      builder_.select(
          nonNegative,
          builder_.binary(ir::Opcode::Div, builder_.binary(ir::Opcode::Div, rounded, pow2), pow1),
          builder_.binary(ir::Opcode::Mul, rounded, pow1)));
  // x itself where it is not finite, where scaling up overflowed, or scaling back did.
  ir::Type boolean = ir::Type::scalar(ScalarKind::Bool);
  auto infinite = [&](ir::Value *v) {
    return builder_.math(ir::MathFunctionKind::IsInf, boolean, {v});
  };
  ir::Value *keepX =
      builder_.binary(ir::Opcode::Or,
                      builder_
                          .create(ir::Opcode::Not, boolean,
                                  {builder_.math(ir::MathFunctionKind::IsFinite, boolean, {value})})
                          ->result(),
                      builder_.binary(ir::Opcode::Or, infinite(scaled), infinite(scaledBack)));
  ir::Value *result = builder_.select(keepX, value, scaledBack);
  return Operand::scalar(builder_.cast(result, x.type()));
}

} // namespace kaji::frontend
