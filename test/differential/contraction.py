"""FMA contraction on the cuda targets (docs/sema.md, "Accuracy"): there `p ± c` with `p` a
float product may be computed as one fma, the exact `x * y ± c` rounded once. The cpu target
rounds every operation. The reference follows a product's factors to every add or subtract
that may fuse it and computes the fused result exactly here."""

import math
from fractions import Fraction

import numpy as np

# Bits of precision (with the implicit one) and the smallest normal exponent of each kind.
_FORMATS = {"float16": (11, -14), "float32": (24, -126), "float64": (53, -1022)}


def contracts(target):
    """Whether `target` may contract a product and an add into an fma."""
    return target != "cpu"


def round_exact(value, kind):
    """The Fraction `value` (nonzero) correctly rounded to `kind`, ties to even, overflowing to
    infinity, as a Python float."""
    precision, min_exponent = _FORMATS[kind]
    sign = -1.0 if value < 0 else 1.0
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    quantum = max(exponent, min_exponent) - (precision - 1)
    scaled = magnitude / Fraction(2) ** quantum
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest > scaled.denominator or (2 * rest == scaled.denominator and whole % 2):
        whole += 1
    largest = float(np.finfo(kind).max)
    try:
        result = math.ldexp(whole, quantum)
    except OverflowError:
        return sign * math.inf
    return sign * (math.inf if result > largest else result)


def fused(x, y, c, kind):
    """fma(x, y, c) per row for arrays of `kind`: the exact x * y + c rounded once. A finite
    product is never rounded, so it cannot overflow: with a non-finite c the result is c (the
    separately rounded product may be an infinity of the other sign, and the sum NaN). Rows with
    a non-finite factor are the separately rounded result, as an fma gives there too."""
    with np.errstate(all="ignore"):
        separate = (x * y + c).astype(kind)
    result = separate.copy()
    finite_product = np.isfinite(x) & np.isfinite(y)
    result[finite_product & ~np.isfinite(c)] = c[finite_product & ~np.isfinite(c)]
    for row in np.flatnonzero(np.isfinite(x) & np.isfinite(y) & np.isfinite(c)):
        product = Fraction(float(x[row])) * Fraction(float(y[row]))
        exact = product + Fraction(float(c[row]))
        if exact != 0:
            result[row] = round_exact(exact, kind)
        else:
            # An exact zero is -0 only when both addends are -0 (IEEE 754, 6.3).
            negative_product = product == 0 and (np.signbit(x[row]) != np.signbit(y[row]))
            result[row] = -0.0 if negative_product and np.signbit(c[row]) else 0.0
    return result


def differs(alternative, data):
    """Rows where `alternative` is another answer than `data` (NaN equals NaN)."""
    both_nan = np.isnan(alternative) & np.isnan(data)
    same = (alternative == data) & (np.signbit(alternative) == np.signbit(data))
    return ~(both_nan | same)
