"""np.abs and abs() of a signed integer wrap at the operand's width, as NumPy's do: the
minimum stays the minimum, also when the result is widened afterwards."""

import numpy as np
import pytest


def widened_abs(out, x):
    i = 0
    out[0] = np.abs(x[i])
    out[1] = abs(x[i])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_abs_of_the_minimum_wraps_before_widening(jit, dtype):
    x = np.array([np.iinfo(dtype).min], dtype=dtype)
    out = np.zeros(2, dtype=np.int64)
    jit(widened_abs)[1, 1](out, x)
    np.testing.assert_array_equal(out, [np.iinfo(dtype).min] * 2)
