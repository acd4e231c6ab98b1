"""How result rows are compared, with the reference and between targets (docs/testing.md).

Rows the reference leaves undefined are never compared: there docs/sema.md allows more than
one answer (the sign of zero from np.fmin/np.fmax(+-0, -+0), the sign of the NaN that
copysign copies, float // and % by zero), and a target's answer may differ from another's
in anything computed from it. Elsewhere integers and bools must be equal; floats equal with
equal signs of zero, every NaN equal to every NaN (its sign and payload are open); and an
approximate item's floats (a math-library function at the root: docs/sema.md, "Accuracy")
within the target's documented ulp bound of the reference."""

import numpy as np

from .scalars import is_float

# Maximum ulp error of the math library each target calls, for float32 and float64 results:
# glibc's on the cpu target (its manual's tables: at most 1 ulp for these functions on
# x86-64), libdevice's on cuda (CUDA C++ Programming Guide, "Mathematical Functions").
LIBRARY_ULPS = {
    "cpu": {"exp": (1, 1), "log": (1, 1), "sin": (1, 1), "cos": (1, 1), "pow": (1, 1)},
    "cuda": {"exp": (2, 1), "log": (1, 1), "sin": (2, 2), "cos": (2, 2), "pow": (4, 2)},
}
# The reference's own error: Python's math (glibc, within 1 ulp in float64), or for float32
# and float16 results the float64 value rounded once (within 0.5 ulp, plus a double rounding).
REFERENCE_ULPS = 1


def tolerance_ulps(target, function, kind):
    """Ulps a result of `kind` from `function` on `target` may lie from the reference. float16
    is computed in float32 and rounded (docs/sema.md): at most one float16 ulp off."""
    if kind == "float16":
        return 1
    return LIBRARY_ULPS[target][function][kind == "float64"] + REFERENCE_ULPS


def same(got, expected):
    """Exact: equal bits for integers; for floats equal values with equal signs of zero, or
    both NaN."""
    if not is_float(got.dtype.name):
        return got == expected
    both_nan = np.isnan(got) & np.isnan(expected)
    return both_nan | ((got == expected) & (np.signbit(got) == np.signbit(expected)))


def _ordinal(values, kind):
    """Each value of `kind` as an integer on the line where consecutive floats are consecutive
    integers (+0 and -0 are one point, infinities one past the largest finite values)."""
    bits = np.asarray(values, dtype=np.float64).astype(kind)
    integer = bits.view({"float16": np.int16, "float32": np.int32, "float64": np.int64}[kind])
    wide = integer.astype(np.int64)
    magnitude = wide & np.int64(np.iinfo(integer.dtype).max)
    return np.where(wide < 0, -magnitude, magnitude)


def ulps_apart(got, expected, kind):
    """Distance in ulps of `kind` between float rows (stored widened to float64)."""
    return np.abs(_ordinal(got, kind) - _ordinal(expected, kind))


def within(got, expected, kind, ulps):
    """NaN where the other is NaN, otherwise at most `ulps` ulps of `kind` apart."""
    nan_got, nan_expected = np.isnan(got), np.isnan(expected)
    with np.errstate(invalid="ignore", over="ignore"):
        close = ulps_apart(np.where(nan_got, 0.0, got), np.where(nan_expected, 0.0, expected),
                           kind) <= ulps
    return np.where(nan_got | nan_expected, nan_got & nan_expected, close)


def differing_rows(got, expected, undefined, kind=None, ulps=0, alternatives=()):
    """Indices of the rows where `got` and `expected` disagree, among the defined ones; `ulps`
    > 0 allows that many ulps of the result kind `kind` between floats. A row that equals one
    of `alternatives` (the fused results of a contracting target) agrees too."""
    agree = within(got, expected, kind, ulps) if ulps else same(got, expected)
    for alternative in alternatives:
        agree = agree | same(got, alternative)
    return np.flatnonzero(~undefined & ~agree)
