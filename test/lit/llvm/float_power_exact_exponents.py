# RUN: %kaji-compile %s -O0 --emit llvm | %FileCheck %s
# RUN: %kaji-compile %s -O0 --target cpu --emit llvm | %FileCheck %s --check-prefix=CPU
# pow with a constant exponent of 0, 1, 2 or -1 is 1, x, x * x or 1 / x on every target, also
# unoptimised: libdevice's pow is up to 2 ulp off (3.0 ** 1.0 gave 2.9999999999999996 on an
# H100). Other exponents call the math library.
import math

import kaji
import numpy as np


@kaji.jit("void(float64[:], float64[:], float32[:])")
def powers(out, x, y):
    out[0] = x[0] ** 0
    out[1] = x[0] ** 1.0
    out[2] = x[0] ** 2
    out[3] = math.pow(x[0], -1)
    out[4] = np.power(y[0], 2.0)
    out[5] = x[0] ** 3.0


# CHECK-LABEL: define {{.*}}@powers(
# CHECK: store double 1.000000e+00
# CHECK: [[X:%[0-9a-z.]+]] = load double
# CHECK: store double [[X]]
# CHECK: [[SQUARE:%square[0-9]*]] = fmul double [[X2:%[0-9a-z.]+]], [[X2]]
# CHECK: store double [[SQUARE]]
# CHECK: fdiv double 1.000000e+00,
# CHECK: fmul float
# CHECK: call {{.*}}double @__nv_pow(double {{.*}}, double 3.000000e+00)
# CHECK-NOT: @__nv_pow
# CHECK: ret void

# CPU-LABEL: define {{.*}}@powers(
# CPU-NOT: call {{.*}}@pow(
# CPU: fmul double
# CPU-NOT: call {{.*}}@pow(
# CPU: call {{.*}}double @pow(double {{.*}}, double 3.000000e+00)
# CPU-NOT: call {{.*}}@pow(
# CPU: ret void
