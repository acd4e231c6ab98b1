# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float64[:], int64)' --emit ir | %FileCheck %s
# math.nextafter and np.nextafter are the math function nextafter in the operands' precision;
# ints step in float64, as Python's.
import math

import numpy as np

import kaji


@kaji.jit
def k(f, d, n):
    f[0] = math.nextafter(f[1], f[2])
    d[0] = np.nextafter(d[1], d[2])
    d[3] = math.nextafter(n, 0)

# CHECK: math nextafter(%{{[0-9]+}}, %{{[0-9]+}}) : f32
# CHECK: math nextafter(%{{[0-9]+}}, %{{[0-9]+}}) : f64
# CHECK: math nextafter(%{{[0-9]+}}, %{{[0-9]+}}) : f64
