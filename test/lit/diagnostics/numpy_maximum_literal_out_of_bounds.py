# numpy's maximum of a uint16 and -1 is NumPy 2's OverflowError, as arithmetic is; Python's
# max() is not (test/kernels/test_min_max_out_of_range_literals.py).
# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:], uint16[:])' --emit ir 2>&1 | %FileCheck %s
# CHECK: numpy_maximum_literal_out_of_bounds.py:9:14: error: Python integer -1 out of bounds for uint16 in 'np.maximum(b[0], -1)': the literal takes the type of the other operand, uint16, as in NumPy 2
import numpy as np


def k(out, b):
    out[0] = np.maximum(b[0], -1)
