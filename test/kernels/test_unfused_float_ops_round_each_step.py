"""A float operation not fused into an fma is rounded as written: `t = x ** 2; t /= 2` of
float32 x = 2**64 overflows to inf at the square. On an H100 the nvrtc backend gave 2**127, as
ptxas scaled the two multiplies as one where NVRTC's PTX left them without a rounding modifier
(codegen/include/kaji/codegen/PtxasMiscompiledOps.h, roundUnroundedFloatOps)."""

import numpy as np
import pytest


def halved_square(out, x):
    for i in range(x.size):
        t = x[i] ** 2
        t /= 2
        out[i] = t


def scaled_product(out, x, y):
    for i in range(x.size):
        out[i] = (x[i] * y[i]) * 0.25


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_multiply_overflows_where_rounded_alone(jit, target, dtype):
    big = np.finfo(dtype).max
    x = np.array([2.0 ** 64, np.sqrt(big) * 2, 3.0, -0.5], dtype=dtype)
    out = np.zeros_like(x)
    jit(halved_square)[1, 1](out, x)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, (x * x) / dtype(2))
    y = np.array([big, big, 2.0, 4.0], dtype=dtype)
    jit(scaled_product)[1, 1](out, x, y)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, (x * y) * dtype(0.25))
