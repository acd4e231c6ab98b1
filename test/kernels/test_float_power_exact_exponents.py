"""`x ** e`, `math.pow` and `np.power` with a constant exponent of 0, 1, 2 or -1 are exact on
every target (the correctly rounded 1, x, x * x, 1 / x), also for NaN, infinities and signed
zeros. libdevice's pow is not: `3.0 ** 1.0` gave 2.9999999999999996 on an H100."""

import math

import numpy as np
import pytest

SPECIALS = [3.0, -3.0, 0.1, 1.5, -0.0, 0.0, np.inf, -np.inf, np.nan, 1e-310, 7.0e200, 65504.0,
            1.0 / 3.0, -2.5e-5, 100.0]


def powers(out, x):
    i = 0
    while i < x.size:
        out[0, i] = x[i] ** 0
        out[1, i] = x[i] ** 1.0
        out[2, i] = x[i] ** 2
        out[3, i] = x[i] ** -1
        out[4, i] = math.pow(x[i], 2.0)
        out[5, i] = np.power(x[i], 1)
        out[6, i] = np.power(x[i], -1.0)
        i += 1


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_integer_valued_constant_exponents_are_exact(jit, dtype):
    with np.errstate(all="ignore"):
        x = np.array(SPECIALS, dtype=np.float64).astype(dtype)
        out = np.zeros((7, x.size), dtype=np.float64)
        jit(powers)[1, 1](out, x)
        one, square, reciprocal = np.ones_like(x), x * x, dtype(1) / x
        # math.pow of float16 computes and returns float32 (docs/sema.md).
        math_square = x.astype(np.float32) ** 2 if dtype == np.float16 else square
        expected = np.array([one, x, square, reciprocal, math_square, x, reciprocal],
                            dtype=np.float64)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))
