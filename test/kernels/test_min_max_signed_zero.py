"""Python's min and max pick an operand: min(0.0, -0.0) is 0.0 and max(-0.0, 0.0) is -0.0
(the later operand wins only when strictly smaller or larger). NVPTX's instruction selection
and NVVM both turned the select into min.f64/max.f64, which order -0.0 below 0.0 (H100
differential: `min(0, x, x)` of x = -0.0 gave -0.0 on both GPU backends)."""

import math

import numpy as np
import pytest


def pick(out, x):
    out[0] = min(0, x[0], x[0])
    out[1] = min(x[1], x[0])
    out[2] = max(x[0], x[1])
    out[3] = max(x[1], x[0])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_min_and_max_keep_the_first_of_equal_zeros(jit, dtype):
    x = np.array([-0.0, 0.0], dtype=dtype)
    out = np.full(4, np.nan, dtype=dtype)
    jit(pick)[1, 1](out, x)
    expected = [min(0, -0.0, -0.0), min(0.0, -0.0), max(-0.0, 0.0), max(0.0, -0.0)]
    assert [math.copysign(1, v) for v in out] == [math.copysign(1, v) for v in expected]
