"""-(comparison) is -1 or 0 converted to float: the H100 differential run found cuda giving +1
(LLVM 19's NVPTX backend lowers `sitofp i1` as unsigned; codegen/nvptx/src/SignedBoolToFloat.h)."""

import numpy as np


def negated_comparisons(out, a, b):
    for i in range(a.size):
        out[i] = 2147483648.0 - (-(b[i] <= a[i] != False))  # noqa: E712 (the repro's form)


def test_negated_comparison_converts_as_signed(jit, target):
    a = np.array([187, 0, 3, 255, 1], dtype=np.uint8)
    b = np.array([5.96e-08, 1.0, 4.0, -2.0, 1.0], dtype=np.float16)
    out = np.zeros(a.size, dtype=np.float64)
    jit(negated_comparisons)[1, 1](out, a, b)
    expected = [2147483648.0 + float(bool(b[i] <= a[i] and a[i] != 0)) for i in range(a.size)]
    np.testing.assert_array_equal(out, expected)
