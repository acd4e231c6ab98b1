# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float32, int32)' --emit ir | %FileCheck %s
import math

import kaji


@kaji.jit
def k(out, x, n):
    out[0] = math.sqrt(x) + math.atan2(x, 2.0)
    out[1] = math.exp(n)
    out[2] = math.floor(x)
    out[3] = math.isnan(x)

# float32 stays float32; an int argument computes in float64; floor returns int64.
# CHECK: math sqrt(%x) : f32
# CHECK: math atan2(%x, %{{[0-9]+}}) : f32
# CHECK: math exp(%{{[0-9]+}}) : f64
# CHECK: %[[F:[0-9]+]] = math floor(%x) : f32
# CHECK: cast %[[F]] : f32 to i64
# CHECK: math isnan(%x) : bool
