#include "ComplexArithmetic.h"

#include <cmath>
#include <cstdlib>

namespace kaji::frontend {

using ir::CmpPredicate;
using ir::MathFunctionKind;
using ir::Opcode;
using ir::ScalarKind;

ir::Type ComplexArithmetic::partType(ir::Value *z) const {
  return ir::Type::scalar(ir::componentKind(z->type().scalarKind()));
}

ir::Value *ComplexArithmetic::constant(ir::Type part, double value) {
  return b_.floatConstant(part, value);
}

ir::Value *ComplexArithmetic::fmath(ir::MathFunctionKind function, ir::Value *x) {
  return b_.math(function, x->type(), {x});
}

ir::Value *ComplexArithmetic::fmath(ir::MathFunctionKind function, ir::Value *x, ir::Value *y) {
  return b_.math(function, x->type(), {x, y});
}

ir::Value *ComplexArithmetic::make(ir::Value *real, ir::Value *imag) {
  ir::Type type = ir::Type::scalar(ir::complexOf(real->type().scalarKind()));
  return b_.create(Opcode::Complex, type, {real, imag})->result();
}

// The part a `complex` operation was given, so that the parts of numbers built here stay
// visible to the folder (2 * 1j multiplies constants).
ir::Value *ComplexArithmetic::part(ir::Value *z, unsigned index) {
  if (ir::Operation *definition = z->definingOp();
      definition && definition->opcode() == Opcode::Complex)
    return definition->operand(index);
  return b_.create(index == 0 ? Opcode::Real : Opcode::Imag, partType(z), {z})->result();
}

ir::Value *ComplexArithmetic::real(ir::Value *z) { return part(z, 0); }

ir::Value *ComplexArithmetic::imag(ir::Value *z) { return part(z, 1); }

ir::Value *ComplexArithmetic::convert(ir::Value *value, ScalarKind to) {
  ir::Type part = ir::Type::scalar(ir::componentKind(to));
  if (value->type().scalarKind() == to)
    return value;
  if (value->type().isComplex())
    return make(b_.cast(real(value), part), b_.cast(imag(value), part));
  return make(b_.cast(value, part), constant(part, 0.0));
}

ir::Value *ComplexArithmetic::add(ir::Value *a, ir::Value *b) {
  return make(fbinary(Opcode::Add, real(a), real(b)), fbinary(Opcode::Add, imag(a), imag(b)));
}

ir::Value *ComplexArithmetic::sub(ir::Value *a, ir::Value *b) {
  return make(fbinary(Opcode::Sub, real(a), real(b)), fbinary(Opcode::Sub, imag(a), imag(b)));
}

ir::Value *ComplexArithmetic::mul(ir::Value *a, ir::Value *b) {
  ir::Value *ar = real(a), *ai = imag(a), *br = real(b), *bi = imag(b);
  return make(fbinary(Opcode::Sub, fbinary(Opcode::Mul, ar, br), fbinary(Opcode::Mul, ai, bi)),
              fbinary(Opcode::Add, fbinary(Opcode::Mul, ar, bi), fbinary(Opcode::Mul, ai, br)));
}

ir::Value *ComplexArithmetic::div(ir::Value *a, ir::Value *b) {
  // numpy's loops: scale by the larger part of the divisor (Smith, 1962).
  ir::Value *ar = real(a), *ai = imag(a), *br = real(b), *bi = imag(b);
  ir::Type part = br->type();
  ir::Value *one = constant(part, 1.0);
  ir::Value *absR = fmath(MathFunctionKind::FAbs, br), *absI = fmath(MathFunctionKind::FAbs, bi);
  ir::Value *realLarger = b_.cmp(CmpPredicate::Ge, absR, absI);
  auto mul = [&](ir::Value *x, ir::Value *y) { return fbinary(Opcode::Mul, x, y); };
  auto add = [&](ir::Value *x, ir::Value *y) { return fbinary(Opcode::Add, x, y); };
  auto sub = [&](ir::Value *x, ir::Value *y) { return fbinary(Opcode::Sub, x, y); };
  // |br| >= |bi|: ratio bi/br.
  ir::Value *ratioR = fbinary(Opcode::Div, bi, br);
  ir::Value *scaleR = fbinary(Opcode::Div, one, add(br, mul(bi, ratioR)));
  ir::Value *realR = mul(add(ar, mul(ai, ratioR)), scaleR);
  ir::Value *imagR = mul(sub(ai, mul(ar, ratioR)), scaleR);
  // |bi| > |br| (or a NaN part): ratio br/bi.
  ir::Value *ratioI = fbinary(Opcode::Div, br, bi);
  ir::Value *scaleI = fbinary(Opcode::Div, one, add(bi, mul(br, ratioI)));
  ir::Value *realI = mul(add(mul(ar, ratioI), ai), scaleI);
  ir::Value *imagI = mul(sub(mul(ai, ratioI), ar), scaleI);
  // A zero divisor: each part divided by |br| (inf or nan), as numpy.
  ir::Value *zero = constant(part, 0.0);
  ir::Value *divisorZero = b_.binary(Opcode::And, b_.cmp(CmpPredicate::Eq, absR, zero),
                                     b_.cmp(CmpPredicate::Eq, absI, zero));
  ir::Value *realZ = fbinary(Opcode::Div, ar, absR);
  ir::Value *imagZ = fbinary(Opcode::Div, ai, absR);
  ir::Value *re = b_.select(divisorZero, realZ, b_.select(realLarger, realR, realI));
  ir::Value *im = b_.select(divisorZero, imagZ, b_.select(realLarger, imagR, imagI));
  return make(re, im);
}

ir::Value *ComplexArithmetic::neg(ir::Value *z) {
  return make(b_.unary(Opcode::Neg, real(z)), b_.unary(Opcode::Neg, imag(z)));
}

ir::Value *ComplexArithmetic::conjugate(ir::Value *z) {
  return make(real(z), b_.unary(Opcode::Neg, imag(z)));
}

ir::Value *ComplexArithmetic::abs(ir::Value *z) {
  return fmath(MathFunctionKind::Hypot, real(z), imag(z));
}

ir::Value *ComplexArithmetic::equal(ir::Value *a, ir::Value *b) {
  return b_.binary(Opcode::And, b_.cmp(CmpPredicate::Eq, real(a), real(b)),
                   b_.cmp(CmpPredicate::Eq, imag(a), imag(b)));
}

ir::Value *ComplexArithmetic::isZero(ir::Value *z) {
  ir::Value *zero = constant(partType(z), 0.0);
  return b_.binary(Opcode::And, b_.cmp(CmpPredicate::Eq, real(z), zero),
                   b_.cmp(CmpPredicate::Eq, imag(z), zero));
}

ir::Value *ComplexArithmetic::powConstant(ir::Value *z, int64_t n) {
  ir::Type part = partType(z);
  ir::Value *result = make(constant(part, 1.0), constant(part, 0.0));
  uint64_t remaining = n < 0 ? uint64_t(0) - uint64_t(n) : uint64_t(n);
  ir::Value *square = z;
  bool first = true;
  while (remaining) {
    if (remaining & 1) {
      result = first ? square : mul(result, square);
      first = false;
    }
    remaining >>= 1;
    if (remaining)
      square = mul(square, square);
  }
  if (n >= 0)
    return result;
  return div(make(constant(part, 1.0), constant(part, 0.0)), result);
}

ir::Value *ComplexArithmetic::pow(ir::Value *a, ir::Value *b) {
  // CPython's _Py_c_pow: |a|**br / exp(arg(a)*bi) at angle arg(a)*br + bi*log|a|.
  ir::Type part = partType(a);
  ir::Value *ar = real(a), *ai = imag(a), *br = real(b), *bi = imag(b);
  ir::Value *magnitude = fmath(MathFunctionKind::Hypot, ar, ai);
  ir::Value *angle = fmath(MathFunctionKind::Atan2, ai, ar);
  ir::Value *length = b_.binary(Opcode::Pow, magnitude, br);
  length =
      fbinary(Opcode::Div, length, fmath(MathFunctionKind::Exp, fbinary(Opcode::Mul, angle, bi)));
  ir::Value *phase = fbinary(Opcode::Add, fbinary(Opcode::Mul, angle, br),
                             fbinary(Opcode::Mul, bi, fmath(MathFunctionKind::Log, magnitude)));
  ir::Value *general = make(fbinary(Opcode::Mul, length, fmath(MathFunctionKind::Cos, phase)),
                            fbinary(Opcode::Mul, length, fmath(MathFunctionKind::Sin, phase)));
  // 0 ** b: 1 for b == 0; 0 for real b > 0; CPython raises ZeroDivisionError otherwise,
  // kaji gives nan+nanj.
  ir::Value *zero = constant(part, 0.0), *one = constant(part, 1.0);
  ir::Value *nan = constant(part, std::nan(""));
  ir::Value *positiveReal = b_.binary(Opcode::And, b_.cmp(CmpPredicate::Gt, br, zero),
                                      b_.cmp(CmpPredicate::Eq, bi, zero));
  ir::Value *ofZero = make(b_.select(positiveReal, zero, nan), b_.select(positiveReal, zero, nan));
  ir::Value *result = b_.select(isZero(a), ofZero, general);
  return b_.select(isZero(b), make(one, zero), result);
}

ir::Value *ComplexArithmetic::timesI(ir::Value *z) {
  return make(b_.unary(Opcode::Neg, imag(z)), real(z));
}

ir::Value *ComplexArithmetic::timesMinusI(ir::Value *z) {
  return make(imag(z), b_.unary(Opcode::Neg, real(z)));
}

ir::Value *ComplexArithmetic::sqrt(ir::Value *z) {
  // CPython's cmath.sqrt, scaled by 1/8 so that |z| near the largest float does not overflow.
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *ax = fmath(MathFunctionKind::FAbs, x), *ay = fmath(MathFunctionKind::FAbs, y);
  ir::Value *eighth = constant(part, 0.125), *two = constant(part, 2.0);
  ir::Value *ax8 = fbinary(Opcode::Mul, ax, eighth);
  ir::Value *s = fbinary(
      Opcode::Mul, two,
      fmath(MathFunctionKind::Sqrt,
            fbinary(Opcode::Add, ax8,
                    fmath(MathFunctionKind::Hypot, ax8, fbinary(Opcode::Mul, ay, eighth)))));
  ir::Value *d = fbinary(Opcode::Div, ay, fbinary(Opcode::Mul, two, s));
  ir::Value *nonNegative = b_.cmp(CmpPredicate::Ge, x, constant(part, 0.0));
  ir::Value *re = b_.select(nonNegative, s, d);
  ir::Value *im = fmath(MathFunctionKind::CopySign, b_.select(nonNegative, d, s), y);
  ir::Value *zero = isZero(z);
  return make(b_.select(zero, constant(part, 0.0), re), b_.select(zero, y, im));
}

ir::Value *ComplexArithmetic::exp(ir::Value *z) {
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *magnitude = fmath(MathFunctionKind::Exp, x);
  // A real argument keeps its imaginary zero (exp(inf+0j) is inf+0j, not inf+nanj).
  ir::Value *realArgument = b_.cmp(CmpPredicate::Eq, y, constant(partType(z), 0.0));
  ir::Value *re = b_.select(realArgument, magnitude,
                            fbinary(Opcode::Mul, magnitude, fmath(MathFunctionKind::Cos, y)));
  ir::Value *im =
      b_.select(realArgument, y, fbinary(Opcode::Mul, magnitude, fmath(MathFunctionKind::Sin, y)));
  return make(re, im);
}

ir::Value *ComplexArithmetic::log(ir::Value *z) {
  return make(fmath(MathFunctionKind::Log, abs(z)),
              fmath(MathFunctionKind::Atan2, imag(z), real(z)));
}

ir::Value *ComplexArithmetic::sinh(ir::Value *z) {
  ir::Value *x = real(z), *y = imag(z);
  return make(
      fbinary(Opcode::Mul, fmath(MathFunctionKind::Sinh, x), fmath(MathFunctionKind::Cos, y)),
      fbinary(Opcode::Mul, fmath(MathFunctionKind::Cosh, x), fmath(MathFunctionKind::Sin, y)));
}

ir::Value *ComplexArithmetic::cosh(ir::Value *z) {
  ir::Value *x = real(z), *y = imag(z);
  return make(
      fbinary(Opcode::Mul, fmath(MathFunctionKind::Cosh, x), fmath(MathFunctionKind::Cos, y)),
      fbinary(Opcode::Mul, fmath(MathFunctionKind::Sinh, x), fmath(MathFunctionKind::Sin, y)));
}

ir::Value *ComplexArithmetic::tanh(ir::Value *z) {
  // CPython's cmath.tanh: tanh(x) and tan(y) combined so neither part overflows early.
  ir::Type part = partType(z);
  ir::Value *one = constant(part, 1.0);
  ir::Value *tx = fmath(MathFunctionKind::Tanh, real(z)),
            *ty = fmath(MathFunctionKind::Tan, imag(z));
  ir::Value *cx = fbinary(Opcode::Div, one, fmath(MathFunctionKind::Cosh, real(z)));
  ir::Value *txty = fbinary(Opcode::Mul, tx, ty);
  ir::Value *denominator = fbinary(Opcode::Add, one, fbinary(Opcode::Mul, txty, txty));
  ir::Value *re =
      fbinary(Opcode::Div,
              fbinary(Opcode::Mul, tx, fbinary(Opcode::Add, one, fbinary(Opcode::Mul, ty, ty))),
              denominator);
  ir::Value *im =
      fbinary(Opcode::Mul, fbinary(Opcode::Mul, fbinary(Opcode::Div, ty, denominator), cx), cx);
  return make(re, im);
}

ir::Value *ComplexArithmetic::asinh(ir::Value *z) {
  // CPython's cmath.asinh (Kahan): s1 = sqrt(1 + iz), s2 = sqrt(1 - iz).
  ir::Type part = partType(z);
  ir::Value *one = constant(part, 1.0);
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *s1 = sqrt(make(fbinary(Opcode::Add, one, y), b_.unary(Opcode::Neg, x)));
  ir::Value *s2 = sqrt(make(fbinary(Opcode::Sub, one, y), x));
  ir::Value *re =
      fmath(MathFunctionKind::Asinh, fbinary(Opcode::Sub, fbinary(Opcode::Mul, real(s1), imag(s2)),
                                             fbinary(Opcode::Mul, real(s2), imag(s1))));
  ir::Value *im = fmath(MathFunctionKind::Atan2, y,
                        fbinary(Opcode::Sub, fbinary(Opcode::Mul, real(s1), real(s2)),
                                fbinary(Opcode::Mul, imag(s1), imag(s2))));
  return make(re, im);
}

ir::Value *ComplexArithmetic::acos(ir::Value *z) {
  // CPython's cmath.acos: s1 = sqrt(1 - z), s2 = sqrt(1 + z).
  ir::Type part = partType(z);
  ir::Value *one = constant(part, 1.0), *two = constant(part, 2.0);
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *s1 = sqrt(make(fbinary(Opcode::Sub, one, x), b_.unary(Opcode::Neg, y)));
  ir::Value *s2 = sqrt(make(fbinary(Opcode::Add, one, x), y));
  ir::Value *re = fbinary(Opcode::Mul, two, fmath(MathFunctionKind::Atan2, real(s1), real(s2)));
  ir::Value *im =
      fmath(MathFunctionKind::Asinh, fbinary(Opcode::Sub, fbinary(Opcode::Mul, real(s2), imag(s1)),
                                             fbinary(Opcode::Mul, imag(s2), real(s1))));
  return make(re, im);
}

ir::Value *ComplexArithmetic::acosh(ir::Value *z) {
  // CPython's cmath.acosh: s1 = sqrt(z - 1), s2 = sqrt(z + 1).
  ir::Type part = partType(z);
  ir::Value *one = constant(part, 1.0), *two = constant(part, 2.0);
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *s1 = sqrt(make(fbinary(Opcode::Sub, x, one), y));
  ir::Value *s2 = sqrt(make(fbinary(Opcode::Add, x, one), y));
  ir::Value *re =
      fmath(MathFunctionKind::Asinh, fbinary(Opcode::Add, fbinary(Opcode::Mul, real(s1), real(s2)),
                                             fbinary(Opcode::Mul, imag(s1), imag(s2))));
  ir::Value *im = fbinary(Opcode::Mul, two, fmath(MathFunctionKind::Atan2, imag(s1), real(s2)));
  return make(re, im);
}

ir::Value *ComplexArithmetic::atanh(ir::Value *z) {
  // CPython's cmath.atanh on the right half-plane, atanh(-z) == -atanh(z) on the left.
  ir::Type part = partType(z);
  ir::Value *zero = constant(part, 0.0), *one = constant(part, 1.0);
  ir::Value *negative = b_.cmp(CmpPredicate::Lt, real(z), zero);
  ir::Value *reflected = b_.select(negative, neg(z), z);
  ir::Value *x = real(reflected), *y = imag(reflected);
  ir::Value *ay = fmath(MathFunctionKind::FAbs, y);
  ir::Value *oneMinusX = fbinary(Opcode::Sub, one, x);
  ir::Value *denominator = fbinary(Opcode::Add, fbinary(Opcode::Mul, oneMinusX, oneMinusX),
                                   fbinary(Opcode::Mul, ay, ay));
  ir::Value *re = fbinary(
      Opcode::Div,
      fmath(MathFunctionKind::Log1P,
            fbinary(Opcode::Div, fbinary(Opcode::Mul, constant(part, 4.0), x), denominator)),
      constant(part, 4.0));
  ir::Value *im =
      fbinary(Opcode::Div,
              b_.unary(Opcode::Neg,
                       fmath(MathFunctionKind::Atan2, fbinary(Opcode::Mul, constant(part, -2.0), y),
                             fbinary(Opcode::Sub,
                                     fbinary(Opcode::Mul, oneMinusX, fbinary(Opcode::Add, one, x)),
                                     fbinary(Opcode::Mul, ay, ay)))),
              constant(part, 2.0));
  ir::Value *result = make(re, im);
  return b_.select(negative, neg(result), result);
}

std::pair<ir::Value *, ir::Value *> ComplexArithmetic::polar(ir::Value *z) {
  return {abs(z), fmath(MathFunctionKind::Atan2, imag(z), real(z))};
}

ir::Value *ComplexArithmetic::rect(ir::Value *r, ir::Value *phi) {
  // A zero angle gives an exact real number, also for an infinite r (CPython).
  ir::Value *zeroAngle = b_.cmp(CmpPredicate::Eq, phi, constant(phi->type(), 0.0));
  ir::Value *im =
      b_.select(zeroAngle, phi, fbinary(Opcode::Mul, r, fmath(MathFunctionKind::Sin, phi)));
  return make(fbinary(Opcode::Mul, r, fmath(MathFunctionKind::Cos, phi)), im);
}

std::optional<ir::Value *> ComplexArithmetic::cmath(std::string_view name, ir::Value *z) {
  if (name == "sqrt")
    return sqrt(z);
  if (name == "exp")
    return exp(z);
  if (name == "log")
    return log(z);
  if (name == "log10") {
    ir::Value *ln10 = constant(partType(z), M_LN10);
    ir::Value *l = log(z);
    return make(fbinary(Opcode::Div, real(l), ln10), fbinary(Opcode::Div, imag(l), ln10));
  }
  if (name == "sinh")
    return sinh(z);
  if (name == "cosh")
    return cosh(z);
  if (name == "tanh")
    return tanh(z);
  if (name == "asinh")
    return asinh(z);
  if (name == "acosh")
    return acosh(z);
  if (name == "atanh")
    return atanh(z);
  if (name == "acos")
    return acos(z);
  // sin z = -i sinh(iz), tan z = -i tanh(iz), asin z = -i asinh(iz), atan z = -i atanh(iz).
  if (name == "sin")
    return timesMinusI(sinh(timesI(z)));
  if (name == "tan")
    return timesMinusI(tanh(timesI(z)));
  if (name == "asin")
    return timesMinusI(asinh(timesI(z)));
  if (name == "atan")
    return timesMinusI(atanh(timesI(z)));
  if (name == "cos")
    return cosh(timesI(z));
  if (name == "phase")
    return fmath(MathFunctionKind::Atan2, imag(z), real(z));
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    // isfinite needs both parts finite; isnan and isinf either part NaN or infinite.
    MathFunctionKind predicate = ir::findMathFunction(name)->kind;
    ir::Type boolType = ir::Type::scalar(ScalarKind::Bool);
    return b_.binary(name == "isfinite" ? Opcode::And : Opcode::Or,
                     b_.math(predicate, boolType, {real(z)}),
                     b_.math(predicate, boolType, {imag(z)}));
  }
  return std::nullopt;
}

} // namespace kaji::frontend
