"""numpy's ufuncs of a complex argument are kaji's `cmath` functions of the same name, math's
name (np.arcsin is cmath.asin; docs/language.md, "Complex numbers"): for infinite, nan and near-overflow parts they give
exactly what `cmath.f` gives in a kernel, CPython's values, so they differ from numpy's own
where numpy's and CPython's special values differ (docs/numba-compat.md). If np.* ever get
numpy's own special values, this test and those docs change together."""

import cmath
import math

import numpy as np
import pytest

import kaji

INF, NAN = math.inf, math.nan
SPECIAL = np.array([complex(INF, NAN), complex(-INF, 1), complex(NAN, INF), complex(1, INF),
                    complex(710, 1), complex(INF, 0), complex(-0.0, -INF), complex(0, 0),
                    complex(1e-310, 0), complex(3, -4), complex(0, NAN), complex(1, 0),
                    complex(0, -1)])


def _same_number(x, y):
    """x is y: nan equal to nan, +0.0 told from -0.0."""
    return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) ==
                                                 math.copysign(1, y))


def _same_parts(a, b):
    return _same_number(a.real, b.real) and _same_number(a.imag, b.imag)


# Pairs of the numpy ufunc and the cmath function of one name.
FUNCTIONS = (np.sqrt, cmath.sqrt, np.exp, cmath.exp, np.log, cmath.log, np.sin, cmath.sin,
             np.tanh, cmath.tanh, np.arcsin, cmath.asin, np.arccos, cmath.acos, np.arctan,
             cmath.atan, np.arcsinh, cmath.asinh, np.arccosh, cmath.acosh, np.arctanh,
             cmath.atanh)


def numpy_and_cmath(out, x):
    i = kaji.grid(1)
    if i < x.size:
        for k, function in enumerate(FUNCTIONS):
            out[k, i] = function(x[i])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_numpy_ufuncs_of_complex_are_cmaths_special_values_included(jit):
    out = np.zeros((len(FUNCTIONS), SPECIAL.size), np.complex128)
    jit(numpy_and_cmath)[1, 32](out, SPECIAL)
    for row in range(0, len(FUNCTIONS), 2):
        name = FUNCTIONS[row].__name__
        for value, from_numpy, from_cmath in zip(SPECIAL, out[row], out[row + 1]):
            assert _same_parts(from_numpy, from_cmath), (name, value, from_numpy, from_cmath)
    # The documented examples: sqrt(1+infj) is inf+infj in numpy and CPython alike;
    # sin(nan+infj) is CPython's nan-infj, where numpy gives nan+infj.
    assert _same_parts(out[0, 3], complex(INF, INF))
    assert _same_parts(out[6, 2], complex(NAN, -INF))
    assert _same_parts(np.sin(SPECIAL[2]), complex(NAN, INF))
    # arcsin(inf+nanj) is CPython's nan-infj (C99 leaves the sign unspecified), numpy's
    # nan+infj; arccosh(0+nanj) CPython 3.11-3.13's nan+nanj, numpy's nan+pi/2j.
    assert _same_parts(out[10, 0], complex(NAN, -INF))
    assert _same_parts(np.arcsin(SPECIAL[0]), complex(NAN, INF))
    assert _same_parts(out[18, 10], complex(NAN, NAN))
    assert _same_parts(np.arccosh(SPECIAL[10]), complex(NAN, math.pi / 2))
    # Where CPython raises (atanh(1), atan(-1j)), the kernel gives numpy's infinities.
    assert _same_parts(out[20, 11], np.arctanh(SPECIAL[11]))
    assert _same_parts(out[14, 12], np.arctan(SPECIAL[12]))
