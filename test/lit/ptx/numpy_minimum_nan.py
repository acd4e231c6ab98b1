# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

import kaji


@kaji.jit("void(float32[:], float32[:], float32[:])")
def k(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[4 * i] = np.minimum(x[i], y[i])
        out[4 * i + 1] = np.maximum(x[i], y[i])
        out[4 * i + 2] = np.fmin(x[i], y[i])
        out[4 * i + 3] = np.fmax(x[i], y[i])

# numpy's minimum/maximum propagate NaN (PTX's .NaN variants); fmin/fmax ignore it.
# CHECK: min.NaN.f32
# CHECK: max.NaN.f32
# CHECK: min.f32
# CHECK: max.f32
