# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import numpy as np

import kaji


@kaji.jit("void(float16[:])")
def k(x):
    x[0] = np.nextafter(x[1], x[2])

# CHECK: {{.*}}nextafter_of_float16.py:9:12: error: numpy.nextafter() of 'float16' is not supported in kernels (float32 and float64 only, as in Numba), in 'np.nextafter(x[1], x[2])'
