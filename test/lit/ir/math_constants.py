# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float32)' --emit ir | %FileCheck %s
import math

import kaji


@kaji.jit
def k(out, r):
    out[0] = math.pi * r * r
    out[1] = math.inf

# The constants are weak: pi * r stays float32.
# CHECK: const 3.1415927410125732 : f32
# CHECK: mul {{.*}} : f32
# CHECK: const 0x7FF0000000000000 : f32
