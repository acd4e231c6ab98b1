# RUN: %kaji-compile %s --kernel k --sig 'void(int64[::1], int8[::1], float64[::1])' --emit ir | %FileCheck %s
# numpy's operator ufuncs, Python's operator module, pow() and argmax on numbers: each the
# operation it names.
import operator

import numpy as np

import kaji


@kaji.jit
def k(out, small, x):
    out[0] = np.left_shift(small[0], small[1])
    out[1] = np.greater(x[0], x[1])
    out[2] = operator.mul(small[0], 3)
    out[3] = pow(out[0], 2)
    out[4] = np.argmax(x)
    x[2] = np.rad2deg(x[3])

# CHECK-LABEL: kernel @k(
# CHECK: shl %{{[0-9]+}}, %{{[0-9]+}} : i8
# CHECK: cmp gt %{{[0-9]+}}, %{{[0-9]+}} : f64
# CHECK: mul %{{[0-9]+}}, %{{[0-9]+}} : i8
# CHECK: pow %{{[0-9]+}}, %{{[0-9]+}} : i64
# CHECK: cmp gt
# CHECK: const 57.29577951308232 : f64
# CHECK: mul %{{[0-9]+}}, %{{[0-9]+}} : f64
