# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:, :], float32[:])' --emit ir 2>&1 | %FileCheck %s
import numpy as np

import kaji


def k(a, out):
    out[0] = np.sum(a, 0)

# CHECK: reduction_axis.py:8:14: error: numpy.sum() takes one array in kernels (no axis), in 'np.sum(a, 0)'
