"""An ordered compare of a NaN is False and an unordered one True, also where the operand
cannot be negative: ptxas folded `abs(x) > -1`, `abs(x) >= 0` and `x * x >= 0` of a float32 to
True (the H100 differential run's `abs(x * float(False)) > -1` with x = -inf;
codegen/include/kaji/codegen/PtxasMiscompiledOps.h)."""

import math

import numpy as np
import pytest


def compares(out, x):
    for i in range(x.size):
        v = x[i]
        out[i, 0] = abs(v) > -1
        out[i, 1] = abs(v) >= 0
        out[i, 2] = v * v >= 0
        out[i, 3] = math.fabs(v * 0.0) > -0.5
        out[i, 4] = abs(v) != -1
        out[i, 5] = not (abs(v) > -1)
        out[i, 6] = not (abs(v) >= -1)
        out[i, 7] = not (v * v > -2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_compares_of_non_negative_values(jit, target, dtype):
    x = np.array([np.nan, -np.inf, np.inf, -0.0, -2.5, 3.0], dtype=dtype)
    out = np.zeros((x.size, 8), dtype=np.bool_)
    jit(compares)[1, 1](out, x)
    expected = np.zeros_like(out)
    with np.errstate(invalid="ignore"):
        compares(expected, x)
    np.testing.assert_array_equal(out, expected)
