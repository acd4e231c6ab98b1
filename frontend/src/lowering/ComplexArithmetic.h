// Complex arithmetic and cmath, expanded into kaji IR on the numbers' float parts. kaji IR
// has complex values (c64, c128) but only `complex`, `real` and `imag` operate on them
// (docs/ir.md says why); everything Python computes with them is built here, straight-line
// (selects, no branches), in the precision of the parts. The formulas and their accuracy are
// in docs/language.md.
#pragma once

#include "kaji/ir/Builder.h"

#include <optional>
#include <string_view>
#include <utility>

namespace kaji::frontend {

class ComplexArithmetic {
public:
  // Builds at the builder's block and location.
  explicit ComplexArithmetic(ir::Builder &builder) : b_(builder) {}

  ir::Value *make(ir::Value *real, ir::Value *imag);
  ir::Value *real(ir::Value *z);
  ir::Value *imag(ir::Value *z);
  // A complex of kind `to` from a complex or a real number of any kind (bool, int, float).
  ir::Value *convert(ir::Value *value, ir::ScalarKind to);

  ir::Value *add(ir::Value *a, ir::Value *b);
  ir::Value *sub(ir::Value *a, ir::Value *b);
  ir::Value *mul(ir::Value *a, ir::Value *b);
  // numpy's division (Smith's algorithm); a zero divisor gives the parts divided by 0.
  ir::Value *div(ir::Value *a, ir::Value *b);
  ir::Value *neg(ir::Value *z);
  ir::Value *conjugate(ir::Value *z);
  ir::Value *abs(ir::Value *z); // hypot of the parts, a float
  ir::Value *equal(ir::Value *a, ir::Value *b);
  ir::Value *isZero(ir::Value *z);
  // z ** n for a constant integer n: repeated squaring, 1 / z**-n for negative n.
  ir::Value *powConstant(ir::Value *z, int64_t n);
  // a ** b as CPython's complex power (polar form); 0 ** b is 0 for real b > 0, 1 for b == 0.
  ir::Value *pow(ir::Value *a, ir::Value *b);

  // cmath.NAME of z: a complex, a float (phase) or a bool (isnan, isinf, isfinite);
  // nothing for a name cmath has not (or kaji does not have).
  std::optional<ir::Value *> cmath(std::string_view name, ir::Value *z);
  // cmath.polar(z): (abs, phase).
  std::pair<ir::Value *, ir::Value *> polar(ir::Value *z);
  // cmath.rect(r, phi) of two floats of one kind.
  ir::Value *rect(ir::Value *r, ir::Value *phi);

private:
  ir::Type partType(ir::Value *z) const;
  ir::Value *part(ir::Value *z, unsigned index);
  ir::Value *constant(ir::Type part, double value);
  ir::Value *fmath(ir::MathFunctionKind function, ir::Value *x);
  ir::Value *fmath(ir::MathFunctionKind function, ir::Value *x, ir::Value *y);
  ir::Value *fbinary(ir::Opcode op, ir::Value *x, ir::Value *y) { return b_.binary(op, x, y); }
  // i*z and -i*z: the rotations that carry sin, tan, asin, atan onto sinh, tanh, asinh, atanh.
  ir::Value *timesI(ir::Value *z);
  ir::Value *timesMinusI(ir::Value *z);

  ir::Value *sqrt(ir::Value *z);
  ir::Value *exp(ir::Value *z);
  ir::Value *log(ir::Value *z);
  ir::Value *sinh(ir::Value *z);
  ir::Value *cosh(ir::Value *z);
  ir::Value *tanh(ir::Value *z);
  ir::Value *asinh(ir::Value *z);
  ir::Value *acos(ir::Value *z);
  ir::Value *acosh(ir::Value *z);
  ir::Value *atanh(ir::Value *z);

  ir::Builder &b_;
};

} // namespace kaji::frontend
