# RUN: %kaji-compile %s --kernel k --sig 'void(int32[:], int32[:])' --emit ir | %FileCheck %s
import numpy as np

import kaji


@kaji.jit
def k(out, n):
    out[0] = np.power(np.int32(2), 31)
    out[1] = np.power(out[2], n[0])

# Integer np.power is the ** operator: an integer power that wraps, not a float pow.
# CHECK: const -2147483648 : i32
# CHECK: pow %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK-NOT: f64
