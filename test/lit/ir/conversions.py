# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float64, int32)' --emit ir | %FileCheck %s
import numpy as np

import kaji


@kaji.jit
def k(out, x, n):
    out[0] = int(x)
    out[1] = float(n)
    out[2] = bool(n)
    out[3] = np.float32(x) + kaji.int16(x)

# CHECK: cast %x : f64 to i64
# CHECK: cast %n : i32 to f64
# CHECK: cmp ne %n, %{{[0-9]+}} : i32
# CHECK: cast %x : f64 to f32
# CHECK: cast %x : f64 to i16
