#include "ComplexArithmetic.h"

#include <cmath>
#include <cstdlib>
#include <limits>

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

ir::Value *ComplexArithmetic::less(ir::Value *a, ir::Value *b, bool orEqual) {
  ir::Value *ar = real(a), *ai = imag(a), *br = real(b), *bi = imag(b);
  // Float compares but ne are false on a NaN: x == x tells a number from a NaN.
  ir::Value *imagNumbers =
      b_.binary(Opcode::And, b_.cmp(CmpPredicate::Eq, ai, ai), b_.cmp(CmpPredicate::Eq, bi, bi));
  ir::Value *byReal = b_.binary(Opcode::And, b_.cmp(CmpPredicate::Lt, ar, br), imagNumbers);
  ir::Value *byImag = b_.binary(Opcode::And, b_.cmp(CmpPredicate::Eq, ar, br),
                                b_.cmp(orEqual ? CmpPredicate::Le : CmpPredicate::Lt, ai, bi));
  return b_.binary(Opcode::Or, byReal, byImag);
}

ir::Value *ComplexArithmetic::extremum(ir::Value *a, ir::Value *b, bool maximum,
                                       bool propagateNaN) {
  ir::Value *ordered = maximum ? less(b, a, true) : less(a, b, true);
  ir::Value *nanDecides = *cmath("isnan", propagateNaN ? a : b);
  ir::Value *first = b_.binary(Opcode::Or, nanDecides, ordered);
  return make(b_.select(first, real(a), real(b)), b_.select(first, imag(a), imag(b)));
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

ComplexArithmetic::Limits ComplexArithmetic::limits(ir::Type part) {
  if (part.scalarKind() == ScalarKind::Float32)
    return {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
            std::numeric_limits<float>::digits};
  return {std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
          std::numeric_limits<double>::digits};
}

ir::Value *ComplexArithmetic::beyond(ir::Value *v, double bound) {
  ir::Value *within =
      b_.cmp(CmpPredicate::Le, fmath(MathFunctionKind::FAbs, v), constant(v->type(), bound));
  return b_.unary(Opcode::Not, within);
}

ir::Value *ComplexArithmetic::finite(ir::Value *x, ir::Value *y) {
  double max = limits(x->type()).max;
  return b_.unary(Opcode::Not, b_.binary(Opcode::Or, beyond(x, max), beyond(y, max)));
}

ir::Value *ComplexArithmetic::bothTiny(ir::Value *x, ir::Value *y) {
  ir::Value *minNormal = constant(x->type(), limits(x->type()).minNormal);
  return b_.binary(Opcode::And,
                   b_.cmp(CmpPredicate::Lt, fmath(MathFunctionKind::FAbs, x), minNormal),
                   b_.cmp(CmpPredicate::Lt, fmath(MathFunctionKind::FAbs, y), minNormal));
}

ir::Value *ComplexArithmetic::partClass(ir::Value *x) {
  using namespace cmath_special;
  ir::Type part = x->type();
  auto is = [&](PartClass c) { return b_.intConstant(ir::Type::scalar(ScalarKind::Int64), c); };
  ir::Value *zero = constant(part, 0.0);
  ir::Value *signBitSet =
      b_.cmp(CmpPredicate::Lt, fmath(MathFunctionKind::CopySign, constant(part, 1.0), x), zero);
  ir::Value *c = b_.select(b_.cmp(CmpPredicate::Lt, x, zero), is(kNegative), is(kPositive));
  c = b_.select(b_.cmp(CmpPredicate::Eq, x, zero),
                b_.select(signBitSet, is(kNegativeZero), is(kPositiveZero)), c);
  c = b_.select(b_.cmp(CmpPredicate::Eq, x, constant(part, -INFINITY)), is(kNegativeInfinity), c);
  c = b_.select(b_.cmp(CmpPredicate::Eq, x, constant(part, INFINITY)), is(kPositiveInfinity), c);
  return b_.select(b_.cmp(CmpPredicate::Ne, x, x), is(kNaN), c);
}

ir::Value *ComplexArithmetic::tablePart(ir::Value *code, ir::Type part) {
  using namespace cmath_special;
  // Indexed by Magnitude.
  constexpr double kMagnitudes[] = {0.0,  0.25 * M_PI, 0.5 * M_PI, 0.75 * M_PI,
                                    M_PI, INFINITY,    NAN,        1.0};
  ir::Type i64 = code->type();
  ir::Value *magnitude = b_.binary(Opcode::And, code, b_.intConstant(i64, kNegativeSign - 1));
  ir::Value *value = constant(part, kMagnitudes[kOne]);
  for (unsigned m = 0; m < kOne; ++m)
    value = b_.select(b_.cmp(CmpPredicate::Eq, magnitude, b_.intConstant(i64, m)),
                      constant(part, kMagnitudes[m]), value);
  ir::Value *negative =
      b_.cmp(CmpPredicate::Ne, b_.binary(Opcode::And, code, b_.intConstant(i64, kNegativeSign)),
             b_.intConstant(i64, 0));
  return b_.select(negative, b_.unary(Opcode::Neg, value), value);
}

ir::Value *ComplexArithmetic::specialValue(const cmath_special::Table &table, ir::Value *x,
                                           ir::Value *y) {
  using namespace cmath_special;
  ir::Type part = x->type();
  auto integer = [&](int64_t v) { return b_.intConstant(ir::Type::scalar(ScalarKind::Int64), v); };
  ir::Value *row = partClass(x), *column = partClass(y);
  ir::Value *word = integer(int64_t(table.rows[kNaN]));
  for (unsigned r = 0; r < kNaN; ++r)
    word =
        b_.select(b_.cmp(CmpPredicate::Eq, row, integer(r)), integer(int64_t(table.rows[r])), word);
  ir::Value *entry =
      b_.binary(Opcode::Shr, word, b_.binary(Opcode::Mul, column, integer(2 * kPartBits)));
  ir::Value *partMask = integer((1 << kPartBits) - 1);
  ir::Value *re = tablePart(b_.binary(Opcode::And, entry, partMask), part);
  ir::Value *im = tablePart(
      b_.binary(Opcode::And, b_.binary(Opcode::Shr, entry, integer(kPartBits)), partMask), part);
  if (table.angleSigns == AngleSigns::None)
    return make(re, im);
  auto either = [&](ir::Value *c, PartClass a, PartClass b) {
    return b_.binary(Opcode::Or, b_.cmp(CmpPredicate::Eq, c, integer(a)),
                     b_.cmp(CmpPredicate::Eq, c, integer(b)));
  };
  ir::Value *angleEntry = b_.binary(Opcode::And, either(row, kNegativeInfinity, kPositiveInfinity),
                                    either(column, kNegative, kPositive));
  ir::Value *cosY = fmath(MathFunctionKind::Cos, y), *sinY = fmath(MathFunctionKind::Sin, y);
  auto withSignOf = [&](ir::Value *value, ir::Value *sign) {
    ir::Value *unit = fmath(MathFunctionKind::CopySign, constant(part, 1.0), sign);
    return b_.select(angleEntry, fbinary(Opcode::Mul, value, unit), value);
  };
  if (table.angleSigns == AngleSigns::CosSin)
    return make(withSignOf(re, cosY), withSignOf(im, sinY));
  return make(re, withSignOf(im, fbinary(Opcode::Mul, sinY, cosY)));
}

ir::Value *ComplexArithmetic::piecewise(ir::Value *x, ir::Value *y, ir::Value *rare,
                                        const cmath_special::Table &table,
                                        const std::function<ir::Value *()> &moderate,
                                        const std::function<ir::Value *()> &large) {
  return branch_(
      rare,
      [&] {
        ir::Value *special = specialValue(table, x, y);
        return large ? b_.select(finite(x, y), large(), special) : special;
      },
      moderate);
}

ir::Value *ComplexArithmetic::logHalfMagnitude(ir::Value *x, ir::Value *y) {
  ir::Value *half = constant(x->type(), 0.5);
  return fmath(MathFunctionKind::Log, fmath(MathFunctionKind::Hypot, fbinary(Opcode::Mul, x, half),
                                            fbinary(Opcode::Mul, y, half)));
}

ir::Value *ComplexArithmetic::sqrt(ir::Value *z) {
  ir::Value *x = real(z), *y = imag(z);
  return piecewise(x, y, b_.unary(Opcode::Not, finite(x, y)), cmath_special::kSqrt,
                   [&] { return sqrtOfFinite(z); });
}

ir::Value *ComplexArithmetic::sqrtOfFinite(ir::Value *z) {
  // CPython's cmath.sqrt: s = 2 sqrt(|x|/8 + hypot(|x|/8, |y|/8)), scaled so that |z| near the
  // largest float does not overflow; parts both subnormal are scaled up by 2**(2k+1) instead
  // and s down by 2**-(k+1) (k = digits/2), keeping hypot's precision.
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *ax = fmath(MathFunctionKind::FAbs, x), *ay = fmath(MathFunctionKind::FAbs, y);
  int scaleUp = 2 * (limits(part).mantissaDigits / 2) + 1;
  ir::Value *tiny = bothTiny(x, y);
  ir::Value *inScale =
      b_.select(tiny, constant(part, std::ldexp(1.0, scaleUp)), constant(part, 0.125));
  ir::Value *outScale =
      b_.select(tiny, constant(part, std::ldexp(1.0, -(scaleUp + 1) / 2)), constant(part, 2.0));
  ir::Value *two = constant(part, 2.0);
  ir::Value *axScaled = fbinary(Opcode::Mul, ax, inScale);
  ir::Value *s = fbinary(
      Opcode::Mul, outScale,
      fmath(MathFunctionKind::Sqrt,
            fbinary(Opcode::Add, axScaled,
                    fmath(MathFunctionKind::Hypot, axScaled, fbinary(Opcode::Mul, ay, inScale)))));
  ir::Value *d = fbinary(Opcode::Div, ay, fbinary(Opcode::Mul, two, s));
  ir::Value *nonNegative = b_.cmp(CmpPredicate::Ge, x, constant(part, 0.0));
  ir::Value *re = b_.select(nonNegative, s, d);
  ir::Value *im = fmath(MathFunctionKind::CopySign, b_.select(nonNegative, d, s), y);
  ir::Value *zero = isZero(z);
  return make(b_.select(zero, constant(part, 0.0), re), b_.select(zero, y, im));
}

std::pair<ir::Value *, ir::Value *> ComplexArithmetic::overflowRescaling(ir::Value *x,
                                                                         ir::Value *large) {
  ir::Type part = x->type();
  return {b_.select(large, fmath(MathFunctionKind::CopySign, constant(part, 1.0), x),
                    constant(part, 0.0)),
          b_.select(large, constant(part, M_E), constant(part, 1.0))};
}

ir::Value *ComplexArithmetic::exp(ir::Value *z) {
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  ir::Value *large = b_.cmp(CmpPredicate::Gt, x, constant(part, std::log(limits(part).max / 4)));
  auto [shift, factor] = overflowRescaling(x, large);
  // Before the branch: the table's angle signs use them too.
  ir::Value *cosY = fmath(MathFunctionKind::Cos, y), *sinY = fmath(MathFunctionKind::Sin, y);
  return piecewise(x, y, b_.unary(Opcode::Not, finite(x, y)), cmath_special::kExp, [&] {
    ir::Value *magnitude = fmath(MathFunctionKind::Exp, fbinary(Opcode::Sub, x, shift));
    return make(fbinary(Opcode::Mul, fbinary(Opcode::Mul, magnitude, cosY), factor),
                fbinary(Opcode::Mul, fbinary(Opcode::Mul, magnitude, sinY), factor));
  });
}

ir::Value *ComplexArithmetic::log(ir::Value *z) {
  // Beyond max/4 CPython takes log(|z|/2) + log 2; for parts both subnormal (or zero)
  // log(|z| 2**digits) - digits log 2.
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  Limits limit = limits(part);
  ir::Value *tiny = bothTiny(x, y);
  ir::Value *rare = b_.binary(
      Opcode::Or, b_.binary(Opcode::Or, beyond(x, limit.max / 4), beyond(y, limit.max / 4)), tiny);
  ir::Value *angle = fmath(MathFunctionKind::Atan2, y, x);
  return piecewise(
      x, y, rare, cmath_special::kLog,
      [&] { return make(fmath(MathFunctionKind::Log, abs(z)), angle); },
      [&] {
        ir::Value *scale = b_.select(tiny, constant(part, std::ldexp(1.0, limit.mantissaDigits)),
                                     constant(part, 0.5));
        ir::Value *offset =
            b_.select(tiny, constant(part, -limit.mantissaDigits * M_LN2), constant(part, M_LN2));
        ir::Value *magnitude = fmath(MathFunctionKind::Hypot, fbinary(Opcode::Mul, x, scale),
                                     fbinary(Opcode::Mul, y, scale));
        return make(fbinary(Opcode::Add, fmath(MathFunctionKind::Log, magnitude), offset), angle);
      });
}

ir::Value *ComplexArithmetic::coshOrSinh(ir::Value *z, MathFunctionKind ofRealPart,
                                         const cmath_special::Table &table) {
  // (cos(y) f(x), sin(y) g(x)) with f = ofRealPart and g the other one.
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  MathFunctionKind ofImagPart =
      ofRealPart == MathFunctionKind::Cosh ? MathFunctionKind::Sinh : MathFunctionKind::Cosh;
  auto [shift, factor] = overflowRescaling(x, beyond(x, std::log(limits(part).max / 4)));
  // Before the branch: the table's angle signs use them too.
  ir::Value *cosY = fmath(MathFunctionKind::Cos, y), *sinY = fmath(MathFunctionKind::Sin, y);
  return piecewise(x, y, b_.unary(Opcode::Not, finite(x, y)), table, [&] {
    ir::Value *shifted = fbinary(Opcode::Sub, x, shift);
    return make(
        fbinary(Opcode::Mul, fbinary(Opcode::Mul, cosY, fmath(ofRealPart, shifted)), factor),
        fbinary(Opcode::Mul, fbinary(Opcode::Mul, sinY, fmath(ofImagPart, shifted)), factor));
  });
}

ir::Value *ComplexArithmetic::sinh(ir::Value *z) {
  return coshOrSinh(z, MathFunctionKind::Sinh, cmath_special::kSinh);
}

ir::Value *ComplexArithmetic::cosh(ir::Value *z) {
  return coshOrSinh(z, MathFunctionKind::Cosh, cmath_special::kCosh);
}

ir::Value *ComplexArithmetic::tanh(ir::Value *z) {
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  // Beyond log(max/4) in |x| CPython's approximation, where cosh(x) would overflow.
  Limits limit = limits(part);
  ir::Value *rare = b_.binary(Opcode::Or, beyond(x, std::log(limit.max / 4)), beyond(y, limit.max));
  return piecewise(
      x, y, rare, cmath_special::kTanh,
      [&] {
        // CPython's cmath.tanh: tanh(x) and tan(y) combined so neither part overflows early.
        ir::Value *one = constant(part, 1.0);
        ir::Value *tx = fmath(MathFunctionKind::Tanh, x), *ty = fmath(MathFunctionKind::Tan, y);
        ir::Value *cx = fbinary(Opcode::Div, one, fmath(MathFunctionKind::Cosh, x));
        ir::Value *txty = fbinary(Opcode::Mul, tx, ty);
        ir::Value *denominator = fbinary(Opcode::Add, one, fbinary(Opcode::Mul, txty, txty));
        ir::Value *re = fbinary(
            Opcode::Div,
            fbinary(Opcode::Mul, tx, fbinary(Opcode::Add, one, fbinary(Opcode::Mul, ty, ty))),
            denominator);
        ir::Value *im = fbinary(
            Opcode::Mul, fbinary(Opcode::Mul, fbinary(Opcode::Div, ty, denominator), cx), cx);
        return make(re, im);
      },
      [&] {
        // 1 - tanh(x)**2 is 4 exp(-2|x|) to the float's precision.
        ir::Value *sinCos = fbinary(
            Opcode::Mul, fbinary(Opcode::Mul, constant(part, 4.0), fmath(MathFunctionKind::Sin, y)),
            fmath(MathFunctionKind::Cos, y));
        ir::Value *decay = fmath(MathFunctionKind::Exp, fbinary(Opcode::Mul, constant(part, -2.0),
                                                                fmath(MathFunctionKind::FAbs, x)));
        return make(fmath(MathFunctionKind::CopySign, constant(part, 1.0), x),
                    fbinary(Opcode::Mul, sinCos, decay));
      });
}

// asinh, acos and acosh: beyond max/4 CPython's formulas through log(|z|/2) + 2 log 2, where
// the square roots of 1 +- z would overflow.
ir::Value *ComplexArithmetic::asinh(ir::Value *z) {
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  double large = limits(part).max / 4;
  return piecewise(
      x, y, b_.binary(Opcode::Or, beyond(x, large), beyond(y, large)), cmath_special::kAsinh,
      [&] {
        // CPython's cmath.asinh (Kahan): s1 = sqrt(1 + iz), s2 = sqrt(1 - iz).
        ir::Value *one = constant(part, 1.0);
        ir::Value *s1 = sqrtOfFinite(make(fbinary(Opcode::Add, one, y), b_.unary(Opcode::Neg, x)));
        ir::Value *s2 = sqrtOfFinite(make(fbinary(Opcode::Sub, one, y), x));
        ir::Value *re = fmath(MathFunctionKind::Asinh,
                              fbinary(Opcode::Sub, fbinary(Opcode::Mul, real(s1), imag(s2)),
                                      fbinary(Opcode::Mul, real(s2), imag(s1))));
        ir::Value *im = fmath(MathFunctionKind::Atan2, y,
                              fbinary(Opcode::Sub, fbinary(Opcode::Mul, real(s1), real(s2)),
                                      fbinary(Opcode::Mul, imag(s1), imag(s2))));
        return make(re, im);
      },
      [&] {
        ir::Value *logMagnitude =
            fbinary(Opcode::Add, logHalfMagnitude(x, y), constant(part, 2 * M_LN2));
        return make(fmath(MathFunctionKind::CopySign, logMagnitude, x),
                    fmath(MathFunctionKind::Atan2, y, fmath(MathFunctionKind::FAbs, x)));
      });
}

ir::Value *ComplexArithmetic::acos(ir::Value *z) {
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  double large = limits(part).max / 4;
  return piecewise(
      x, y, b_.binary(Opcode::Or, beyond(x, large), beyond(y, large)), cmath_special::kAcos,
      [&] {
        // CPython's cmath.acos: s1 = sqrt(1 - z), s2 = sqrt(1 + z).
        ir::Value *one = constant(part, 1.0), *two = constant(part, 2.0);
        ir::Value *s1 = sqrtOfFinite(make(fbinary(Opcode::Sub, one, x), b_.unary(Opcode::Neg, y)));
        ir::Value *s2 = sqrtOfFinite(make(fbinary(Opcode::Add, one, x), y));
        ir::Value *re =
            fbinary(Opcode::Mul, two, fmath(MathFunctionKind::Atan2, real(s1), real(s2)));
        ir::Value *im = fmath(MathFunctionKind::Asinh,
                              fbinary(Opcode::Sub, fbinary(Opcode::Mul, real(s2), imag(s1)),
                                      fbinary(Opcode::Mul, imag(s2), real(s1))));
        return make(re, im);
      },
      [&] {
        ir::Value *logMagnitude =
            fbinary(Opcode::Add, logHalfMagnitude(x, y), constant(part, 2 * M_LN2));
        return make(fmath(MathFunctionKind::Atan2, fmath(MathFunctionKind::FAbs, y), x),
                    b_.unary(Opcode::Neg, fmath(MathFunctionKind::CopySign, logMagnitude, y)));
      });
}

ir::Value *ComplexArithmetic::acosh(ir::Value *z) {
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  double large = limits(part).max / 4;
  return piecewise(
      x, y, b_.binary(Opcode::Or, beyond(x, large), beyond(y, large)), cmath_special::kAcosh,
      [&] {
        // CPython's cmath.acosh: s1 = sqrt(z - 1), s2 = sqrt(z + 1).
        ir::Value *one = constant(part, 1.0), *two = constant(part, 2.0);
        ir::Value *s1 = sqrtOfFinite(make(fbinary(Opcode::Sub, x, one), y));
        ir::Value *s2 = sqrtOfFinite(make(fbinary(Opcode::Add, x, one), y));
        ir::Value *re = fmath(MathFunctionKind::Asinh,
                              fbinary(Opcode::Add, fbinary(Opcode::Mul, real(s1), real(s2)),
                                      fbinary(Opcode::Mul, imag(s1), imag(s2))));
        ir::Value *im =
            fbinary(Opcode::Mul, two, fmath(MathFunctionKind::Atan2, imag(s1), real(s2)));
        return make(re, im);
      },
      [&] {
        return make(fbinary(Opcode::Add, logHalfMagnitude(x, y), constant(part, 2 * M_LN2)),
                    fmath(MathFunctionKind::Atan2, y, x));
      });
}

ir::Value *
ComplexArithmetic::atanhByReflection(ir::Value *z,
                                     const std::function<ir::Value *(ir::Value *)> &right) {
  ir::Value *negative = b_.cmp(CmpPredicate::Lt, real(z), constant(partType(z), 0.0));
  ir::Value *result = right(b_.select(negative, neg(z), z));
  return b_.select(negative, neg(result), result);
}

ir::Value *ComplexArithmetic::atanh(ir::Value *z) {
  // CPython's cmath.atanh: log1p's formula on the right half-plane; beyond sqrt(max/4)
  // 1/z +- i pi/2; at 1 +- i y for y below sqrt(min) its own formula (inf at y == 0).
  ir::Type part = partType(z);
  ir::Value *x = real(z), *y = imag(z);
  Limits limit = limits(part);
  double sqrtLarge = std::sqrt(limit.max / 4);
  ir::Value *one = constant(part, 1.0), *two = constant(part, 2.0);
  ir::Value *nearOne =
      b_.binary(Opcode::And, b_.cmp(CmpPredicate::Eq, fmath(MathFunctionKind::FAbs, x), one),
                b_.cmp(CmpPredicate::Lt, fmath(MathFunctionKind::FAbs, y),
                       constant(part, std::sqrt(limit.minNormal))));
  ir::Value *rare = b_.binary(
      Opcode::Or, b_.binary(Opcode::Or, beyond(x, sqrtLarge), beyond(y, sqrtLarge)), nearOne);
  return piecewise(
      x, y, rare, cmath_special::kAtanh,
      [&] {
        return atanhByReflection(z, [&](ir::Value *w) {
          ir::Value *wx = real(w), *wy = imag(w);
          ir::Value *ay = fmath(MathFunctionKind::FAbs, wy);
          ir::Value *oneMinusX = fbinary(Opcode::Sub, one, wx);
          ir::Value *denominator = fbinary(Opcode::Add, fbinary(Opcode::Mul, oneMinusX, oneMinusX),
                                           fbinary(Opcode::Mul, ay, ay));
          ir::Value *re =
              fbinary(Opcode::Div,
                      fmath(MathFunctionKind::Log1P,
                            fbinary(Opcode::Div, fbinary(Opcode::Mul, constant(part, 4.0), wx),
                                    denominator)),
                      constant(part, 4.0));
          ir::Value *im = fbinary(
              Opcode::Div,
              b_.unary(Opcode::Neg,
                       fmath(MathFunctionKind::Atan2,
                             fbinary(Opcode::Mul, constant(part, -2.0), wy),
                             fbinary(Opcode::Sub,
                                     fbinary(Opcode::Mul, oneMinusX, fbinary(Opcode::Add, one, wx)),
                                     fbinary(Opcode::Mul, ay, ay)))),
              two);
          return make(re, im);
        });
      },
      [&] {
        return atanhByReflection(z, [&](ir::Value *w) {
          ir::Value *wx = real(w), *wy = imag(w);
          ir::Value *ay = fmath(MathFunctionKind::FAbs, wy);
          ir::Value *half = constant(part, 0.5);
          ir::Value *h = fmath(MathFunctionKind::Hypot, fbinary(Opcode::Mul, wx, half),
                               fbinary(Opcode::Mul, wy, half));
          ir::Value *large = make(
              fbinary(Opcode::Div,
                      fbinary(Opcode::Div, fbinary(Opcode::Div, wx, constant(part, 4.0)), h), h),
              fmath(MathFunctionKind::CopySign, constant(part, 0.5 * M_PI), wy));
          ir::Value *atOne = b_.cmp(CmpPredicate::Eq, ay, constant(part, 0.0));
          ir::Value *nearOneRe =
              b_.unary(Opcode::Neg, fmath(MathFunctionKind::Log,
                                          fbinary(Opcode::Div, fmath(MathFunctionKind::Sqrt, ay),
                                                  fmath(MathFunctionKind::Sqrt,
                                                        fmath(MathFunctionKind::Hypot, ay, two)))));
          ir::Value *nearOneIm =
              fmath(MathFunctionKind::CopySign,
                    fbinary(Opcode::Div,
                            fmath(MathFunctionKind::Atan2, two, b_.unary(Opcode::Neg, ay)), two),
                    wy);
          ir::Value *closeToOne = make(b_.select(atOne, constant(part, INFINITY), nearOneRe),
                                       b_.select(atOne, wy, nearOneIm));
          return b_.select(nearOne, closeToOne, large);
        });
      });
}

std::pair<ir::Value *, ir::Value *> ComplexArithmetic::polar(ir::Value *z) {
  return {abs(z), fmath(MathFunctionKind::Atan2, imag(z), real(z))};
}

ir::Value *ComplexArithmetic::rect(ir::Value *r, ir::Value *phi) {
  // Before the branch: the table's angle signs use them too.
  ir::Value *cosPhi = fmath(MathFunctionKind::Cos, phi),
            *sinPhi = fmath(MathFunctionKind::Sin, phi);
  return piecewise(r, phi, b_.unary(Opcode::Not, finite(r, phi)), cmath_special::kRect, [&] {
    return make(fbinary(Opcode::Mul, r, cosPhi), fbinary(Opcode::Mul, r, sinPhi));
  });
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
  if (name == "log2") {
    // numpy multiplies log's parts by log2(e) (cmath divides log10's by ln(10)).
    ir::Value *log2e = constant(partType(z), M_LOG2E);
    ir::Value *l = log(z);
    return make(fbinary(Opcode::Mul, real(l), log2e), fbinary(Opcode::Mul, imag(l), log2e));
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
