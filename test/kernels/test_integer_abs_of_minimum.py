"""|INT_MIN| wraps to INT_MIN (numpy): the H100 differential run found np.exp(np.abs(int64 min))
giving inf on cuda, as ptxas takes abs.s64's result to be non-negative
(codegen/include/kaji/codegen/PtxasMiscompiledOps.h)."""

import numpy as np
import pytest


def abs_then_float(out, sign, x):
    for i in range(x.size):
        magnitude = np.abs(x[i])
        out[i] = np.exp(magnitude)
        sign[i] = magnitude < 0


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_abs_of_minimum_wraps(jit, target, dtype):
    info = np.iinfo(dtype)
    x = np.array([info.min, info.min + 1, -3, 0, 5, info.max], dtype=dtype)
    out = np.zeros(x.size, dtype=np.float64)
    sign = np.zeros(x.size, dtype=np.bool_)
    jit(abs_then_float)[1, 1](out, sign, x)
    with np.errstate(over="ignore"):
        expected = np.exp(np.abs(x).astype(np.float64))
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(sign, np.abs(x) < 0)
