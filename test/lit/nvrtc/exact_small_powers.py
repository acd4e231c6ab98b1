# A constant exponent of 0, 1, 2 or -1 is 1, x, x * x or 1 / x, as on the LLVM path: the
# correctly rounded results (libdevice's pow is up to 2 ulp off); other exponents call pow.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import math

import numpy as np
from kaji import cuda


@cuda.jit("void(float64[:], float32[:], float16[:])")
def exact_small_powers(a, b, h):
    a[0] = a[0] ** 2
    a[1] = math.pow(a[1], 1.0)
    b[0] = np.power(b[0], -1)
    b[1] = b[1] ** 0
    h[0] = h[0] ** 2
    a[2] = a[2] ** 3

# CHECK: = (f64([[X:v[0-9]+]]) * f64([[X]]));
# CHECK: = f64({{v[0-9]+}});
# CHECK: = (f32(1) / f32({{v[0-9]+}}));
# CHECK: = f32(1);
# CHECK: = f16((f32([[H:v[0-9]+]]) * f32([[H]])));
# CHECK: = pow({{v[0-9]+}}, {{v[0-9]+}});
