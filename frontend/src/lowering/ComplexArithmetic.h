// Complex arithmetic and cmath, expanded into kaji IR on the numbers' float parts. kaji IR
// has complex values (c64, c128) but only `complex`, `real` and `imag` operate on them
// (docs/ir.md says why); everything Python computes with them is built here, in the precision
// of the parts: arithmetic straight-line (selects, no branches); a cmath function as CPython's
// formula for finite arguments, and behind one branch, taken only when a part is not finite
// or past the function's overflow threshold, CPython's special-value table
// (CmathSpecialValues.h) and its rescaled formulas, so that the common path stays short. The
// formulas and their accuracy are in docs/language.md.
#pragma once

#include "CmathSpecialValues.h"

#include "kaji/ir/Builder.h"

#include <functional>
#include <optional>
#include <string_view>
#include <utility>

namespace kaji::frontend {

class ComplexArithmetic {
public:
  // `condition ? ifTrue() : ifFalse()` laid out as a branch, so that only the side taken runs
  // (FunctionLowerer::branchValue).
  using Branch =
      std::function<ir::Value *(ir::Value *condition, const std::function<ir::Value *()> &ifTrue,
                                const std::function<ir::Value *()> &ifFalse)>;

  // Builds at the builder's block and location; cmath and rect need `branch`.
  explicit ComplexArithmetic(ir::Builder &builder, Branch branch = {})
      : b_(builder), branch_(std::move(branch)) {}

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
  // numpy's order of complex numbers (its CLT and CLE): by the real parts, then by the
  // imaginary ones; unequal real parts order only numbers without a NaN imaginary part.
  ir::Value *less(ir::Value *a, ir::Value *b, bool orEqual);
  // numpy's maximum and minimum (`propagateNaN`: the first operand with a NaN part wins) or
  // fmax and fmin (the operand without a NaN part wins, the first where both have one);
  // else the larger (smaller) by `less`, the first of equal ones.
  ir::Value *extremum(ir::Value *a, ir::Value *b, bool maximum, bool propagateNaN);
  ir::Value *isZero(ir::Value *z);
  // z ** n for a constant integer n: repeated squaring, 1 / z**-n for negative n.
  ir::Value *powConstant(ir::Value *z, int64_t n);
  // a ** b as CPython's complex power (polar form); 0 ** b is 0 for real b > 0, 1 for b == 0.
  ir::Value *pow(ir::Value *a, ir::Value *b);

  // cmath.NAME of z: a complex, a float (phase) or a bool (isnan, isinf, isfinite); also
  // numpy's log2, which cmath has not; nothing for a name cmath has not (or kaji does not
  // have).
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

  // The float limits of a part type, as CPython's DBL_MAX, DBL_MIN and DBL_MANT_DIG.
  struct Limits {
    double max, minNormal;
    int mantissaDigits;
  };
  static Limits limits(ir::Type part);
  // Both parts finite.
  ir::Value *finite(ir::Value *x, ir::Value *y);
  // |v| > bound, or v is nan.
  ir::Value *beyond(ir::Value *v, double bound);
  // Both |x| and |y| below the smallest normal float.
  ir::Value *bothTiny(ir::Value *x, ir::Value *y);
  // The PartClass of x, an int64.
  ir::Value *partClass(ir::Value *x);
  // The table's entry for the classes of x and y, its angle signs applied.
  ir::Value *specialValue(const cmath_special::Table &table, ir::Value *x, ir::Value *y);
  // A table entry's part of the given four-bit code (cmath_special::Magnitude and sign).
  ir::Value *tablePart(ir::Value *code, ir::Type part);
  // A cmath function of (x, y): `moderate()` unless `rare` holds; then, behind a branch, the
  // table's entry for a part not finite and `large()` for finite parts (the rescaled formula;
  // none for functions whose rare arguments are all in the table).
  ir::Value *piecewise(ir::Value *x, ir::Value *y, ir::Value *rare,
                       const cmath_special::Table &table,
                       const std::function<ir::Value *()> &moderate,
                       const std::function<ir::Value *()> &large = {});
  // log(|z| / 2) without overflow: for parts beyond max/4, where |z| may overflow.
  ir::Value *logHalfMagnitude(ir::Value *x, ir::Value *y);

  ir::Value *sqrt(ir::Value *z);
  // CPython's sqrt formula on finite parts (subnormal ones scaled up); also inside the inverse
  // functions.
  ir::Value *sqrtOfFinite(ir::Value *z);
  ir::Value *exp(ir::Value *z);
  ir::Value *log(ir::Value *z);
  // CPython's rescaling of exp, cosh and sinh where |x| is beyond log(max/4) (`large`):
  // f(x - sign(x)) e instead of f(x), so that f(x) cos(y) may stay finite where f(x)
  // overflows. The (shift, factor) to compute f(x - shift) factor with: (sign(x), e) where
  // large, else (0, 1), which leave the formula exact.
  std::pair<ir::Value *, ir::Value *> overflowRescaling(ir::Value *x, ir::Value *large);
  ir::Value *coshOrSinh(ir::Value *z, ir::MathFunctionKind ofRealPart,
                        const cmath_special::Table &table);
  ir::Value *sinh(ir::Value *z);
  ir::Value *cosh(ir::Value *z);
  ir::Value *tanh(ir::Value *z);
  ir::Value *asinh(ir::Value *z);
  ir::Value *acos(ir::Value *z);
  ir::Value *acosh(ir::Value *z);
  ir::Value *atanh(ir::Value *z);
  // atanh on the right half-plane, through atanh(-z) == -atanh(z) on the left.
  ir::Value *atanhByReflection(ir::Value *z, const std::function<ir::Value *(ir::Value *)> &right);

  ir::Builder &b_;
  Branch branch_;
};

} // namespace kaji::frontend
