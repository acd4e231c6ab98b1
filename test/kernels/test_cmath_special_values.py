"""cmath in kernels against CPython's cmath for every class of each part: +-0, +-finite, +-inf
and nan, and values near overflow where CPython rescales (docs/language.md, "Complex
numbers"). Zero, infinite and nan parts must match exactly (signs included); finite ones to
a few ulps. Where CPython raises (ValueError for some special values, OverflowError when a
finite result overflows) a kernel returns the value CPython's special-value table holds, or
its formula's overflowed value: `_where_cpython_raises` states them. complex64 computes in
float32 and is compared with CPython's value rounded to float32."""

import cmath
import itertools
import math
import sys

import numpy as np
import pytest

import kaji

INF, NAN = math.inf, math.nan
# One part of each class, then parts where CPython's formulas change: beyond log(max/4) for
# exp, cosh, sinh, tanh; beyond sqrt(max/4) for atanh; beyond max/4 for sqrt, log and the
# inverse functions; subnormal (sqrt, log).
SPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, INF, -INF, NAN]
FLOAT64_PARTS = SPECIAL_PARTS + [710.0, -710.0, 1e200, -1e200, 1e308, -1.7976931348623157e308,
                                 1e-310, -5e-324]
FLOAT32_PARTS = SPECIAL_PARTS + [89.0, -89.0, 1e38, -3e38]

NAMES = ("sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
         "cosh", "tanh", "asinh", "acosh", "atanh")
FUNCTIONS = tuple(getattr(cmath, name) for name in NAMES)
# CPython's rotations, which give the same signs: sin z = -i sinh(iz), cos z = cosh(iz), ...
ROTATED = {"sin": "sinh", "tan": "tanh", "asin": "asinh", "atan": "atanh"}


def _where_cpython_raises(name, z):
    """What kaji returns where cmath.NAME(z) raises: CPython's table entry or the formula's
    overflowed value."""
    x, y = z.real, z.imag
    if name == "cos":
        return expected("cosh", complex(-y, x))
    if name in ROTATED:
        w = expected(ROTATED[name], complex(-y, x))
        return complex(w.imag, -w.real)
    if name in ("log", "log10"):  # log(+-0 +-0j)
        scale = 1 if name == "log" else math.log(10)
        return complex(-INF, math.atan2(y, x) / scale)
    if name == "atanh":  # atanh(+-1 +-0j)
        return complex(math.copysign(INF, x), y)
    if name in ("exp", "cosh", "sinh", "tanh") and math.isinf(y):
        if math.isinf(x) and name != "tanh":
            return complex(INF, NAN)
        if x == 0 and name == "cosh":
            return complex(NAN, 0.0)
        if x == 0 and name == "sinh":
            return complex(0.0, NAN)
        return complex(NAN, NAN)
    # Overflow of a finite argument: CPython's formula, rescaled beyond log(max/4).
    large = abs(x) > math.log(sys.float_info.max / 4)
    shifted = x - math.copysign(1.0, x) if large else x
    scale = math.e if large else 1.0
    exp, cosh, sinh = (_overflowing(f) for f in (math.exp, math.cosh, math.sinh))
    if name == "exp":
        magnitude = exp(shifted)
        return complex(magnitude * math.cos(y) * scale, magnitude * math.sin(y) * scale)
    if name == "cosh":
        return complex(math.cos(y) * cosh(shifted) * scale, math.sin(y) * sinh(shifted) * scale)
    assert name == "sinh", (name, z)
    return complex(math.cos(y) * sinh(shifted) * scale, math.sin(y) * cosh(shifted) * scale)


def _overflowing(function):
    """math.exp, cosh or sinh giving an infinity where C's does instead of raising."""
    def overflowing(x):
        try:
            return function(x)
        except OverflowError:
            return math.copysign(INF, x) if function is math.sinh else INF
    return overflowing


def expected(name, z):
    try:
        value = getattr(cmath, name)(z)
    except (ValueError, OverflowError):
        return _where_cpython_raises(name, z)
    # kaji holds CPython 3.11-3.13's tables; 3.14 changed these entries (C17's DR 471).
    if sys.version_info >= (3, 14) and name in ("tanh", "acosh") and z.real == 0 and \
            math.isnan(z.imag):
        return complex(NAN, NAN)
    return value


def _same_part(actual, wanted, rel_tol):
    """nan is nan; zeros and infinities exactly, sign included; finite parts to rel_tol."""
    if math.isnan(wanted):
        return math.isnan(actual)
    if math.isinf(wanted) or wanted == 0 or rel_tol == 0:
        return actual == wanted and math.copysign(1, actual) == math.copysign(1, wanted)
    return math.isclose(actual, wanted, rel_tol=rel_tol, abs_tol=1e-300)


def _mismatches(pairs, rel_tol):
    return [(what, z, got, want) for what, z, got, want in pairs
            if not (_same_part(got.real, want.real, rel_tol)
                    and _same_part(got.imag, want.imag, rel_tol))]


def _inputs(parts, dtype):
    return np.array([complex(x, y) for x, y in itertools.product(parts, parts)], dtype)


def all_functions(out, z):
    i = kaji.grid(1)
    if i < z.size:
        for k, function in enumerate(FUNCTIONS):
            out[k, i] = function(z[i])


def _run_all_functions(jit, z):
    out = np.zeros((len(FUNCTIONS), z.size), z.dtype)
    jit(all_functions)[(z.size + 63) // 64, 64](out, z)
    return out


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_complex128_matches_cpython_for_every_class_of_part(jit):
    z = _inputs(FLOAT64_PARTS, np.complex128)
    out = _run_all_functions(jit, z)
    pairs = [(name, complex(value), complex(out[k, i]), expected(name, complex(value)))
             for k, name in enumerate(NAMES) for i, value in enumerate(z)]
    mismatches = _mismatches(pairs, rel_tol=4e-15)
    assert not mismatches, "\n".join(map(str, mismatches))


def _rounded_to_float32(value):
    with np.errstate(over="ignore"):
        return complex(np.complex64(value))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_complex64_matches_cpython_rounded_to_float32(jit):
    z = _inputs(FLOAT32_PARTS, np.complex64)
    out = _run_all_functions(jit, z)
    pairs = [(name, complex(value), complex(out[k, i]),
              _rounded_to_float32(expected(name, complex(value))))
             for k, name in enumerate(NAMES) for i, value in enumerate(z)]
    mismatches = _mismatches(pairs, rel_tol=4e-6)
    assert not mismatches, "\n".join(map(str, mismatches))


def rect_of(out, r, phi):
    i = kaji.grid(1)
    if i < r.size:
        out[i] = cmath.rect(r[i], phi[i])


def _expected_rect(r, phi):
    try:
        return cmath.rect(r, phi)
    except ValueError:  # a nonzero r at an infinite angle
        return complex(INF, NAN) if math.isinf(r) else complex(NAN, NAN)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_rect_matches_cpython(jit, dtype):
    pairs = list(itertools.product(SPECIAL_PARTS, SPECIAL_PARTS))
    r = np.array([p[0] for p in pairs], dtype)
    phi = np.array([p[1] for p in pairs], dtype)
    out = np.zeros(len(pairs), np.result_type(dtype, np.complex64))
    jit(rect_of)[1, 64](out, r, phi)
    compared = [("rect", complex(a, b), complex(got), _rounded_to_float32(_expected_rect(a, b))
                 if dtype == np.float32 else _expected_rect(a, b))
                for a, b, got in zip(r.tolist(), phi.tolist(), out)]
    assert not _mismatches(compared, rel_tol=4e-6 if dtype == np.float32 else 4e-15)


def polar_phase_and_classes(out, flags, z):
    i = kaji.grid(1)
    if i < z.size:
        r, phi = cmath.polar(z[i])
        out[0, i] = r
        out[1, i] = phi
        out[2, i] = cmath.phase(z[i])
        flags[0, i] = cmath.isnan(z[i])
        flags[1, i] = cmath.isinf(z[i])
        flags[2, i] = cmath.isfinite(z[i])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_polar_phase_and_predicates_match_cpython(jit, target):
    z = _inputs(FLOAT64_PARTS, np.complex128)
    out = np.zeros((3, z.size), np.float64)
    flags = np.zeros((3, z.size), np.bool_)
    jit(polar_phase_and_classes)[(z.size + 63) // 64, 64](out, flags, z)
    for i, value in enumerate(z.tolist()):
        try:
            magnitude = cmath.polar(value)[0]
        except OverflowError:
            magnitude = INF
        # CUDA's hypot, which |z| is on the GPU (numba-cuda's too), can overflow to inf where
        # the magnitude rounds to the largest double: hypot(1, 1.7976931348623157e308) is inf,
        # hypot(0, 1.7976931348623157e308) is not.
        if target.startswith("cuda") and magnitude == sys.float_info.max and out[0, i] == INF:
            magnitude = INF
        # cmath.phase is atan2, which raises OverflowError where C's atan2 underflows.
        angle = math.atan2(value.imag, value.real)
        for got, want in ((out[0, i], magnitude), (out[1, i], angle), (out[2, i], angle)):
            assert _same_part(got, want, 4e-15), (value, got, want)
        assert list(flags[:, i]) == [cmath.isnan(value), cmath.isinf(value),
                                     cmath.isfinite(value)], value
