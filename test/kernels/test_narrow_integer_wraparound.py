"""int8/int16 arithmetic wraps at the operand's width before a result is widened, compared,
shifted or divided, as NumPy's does. Found by the differential test on the H100: `-x` of int16
-32768 stored to an int64 array gave 32768 on cuda. ptxas (CUDA 13.0) does not sign-extend the
result of `neg.s16`/`abs.s16` again; the NVPTX backend now emits every 16-bit negation as a
32-bit one narrowed by `cvt.u16.u32` (kaji/codegen/PtxasMiscompiledOps.h), which ptxas
compiles right. The cuda case stays an expected failure until it is confirmed on a GPU."""

import numpy as np
import pytest


def wrapped_then_used(out, x):
    for i in range(x.size):
        negated = -x[i]
        out[i, 0] = negated
        out[i, 1] = x[i] * -2  # NVPTX makes this -(x << 1)
        out[i, 2] = x[i] - 1
        out[i, 3] = negated >> 1
        out[i, 4] = negated < 0
        out[i, 5] = negated // 7
        out[i, 6] = np.abs(x[i])


@pytest.mark.parametrize("dtype", [np.int8, np.int16])
def test_narrow_arithmetic_wraps_before_widening(jit, target, dtype):
    low = np.iinfo(dtype).min
    x = np.array([low, low // 2, low + 1, -3, 0, 5], dtype=dtype)
    out = np.zeros((x.size, 7), dtype=np.int64)
    jit(wrapped_then_used)[1, 1](out, x)
    with np.errstate(over="ignore"):
        negated = -x
        expected = [negated, x * dtype(-2), x - dtype(1), negated >> 1, negated < 0,
                    negated // dtype(7), np.abs(x)]
    np.testing.assert_array_equal(out, np.array(expected).astype(np.int64).T)
