"""Conditional expressions, and/or/not and chained comparisons whose condition is a constant:
the branch Python never evaluates is not compiled, and the value is Python's."""

import numpy as np

import kaji


def constant_conditions(out, y):
    v = y[0]
    out[0] = 1 if 1 else 2
    out[1] = 1 < 2 < 3
    out[2] = 1 > 2 < 3
    out[3] = 3 + (v if True else 7)
    out[4] = 3 + (7 if False else v)
    out[5] = v and 0
    out[6] = 0 or v
    out[7] = 0 and v
    out[8] = 1 or v
    out[9] = not 1
    out[10] = 1 if 0 else (2 if 1 else 3)
    out[11] = 1 if v else (2 if 1 else 3)
    out[12] = 1 if (v and 0) else 2
    out[13] = 1 if not 1 else 2
    out[14] = 5 < 3 < v
    out[15] = 1 < 2 < (3 if 1 else v)
    n = 0
    while 1 < 2 < 3:
        n += 1
        if n == 4:
            break
    while 0 and v:
        n += 100
    out[16] = n


def test_constant_conditions(jit):
    y = np.array([5], dtype=np.int64)
    out = np.zeros(17, dtype=np.int64)
    jit(constant_conditions)[1, 1](out, y)
    expected = np.zeros(17, dtype=np.int64)
    constant_conditions(expected, y)
    np.testing.assert_array_equal(out, expected)
