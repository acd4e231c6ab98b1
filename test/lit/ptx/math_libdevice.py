# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import math

import kaji


@kaji.jit("void(float32[:], float32[:])")
def k(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = math.exp(x[i]) + math.sqrt(x[i]) + math.sin(x[i])

# The whole libdevice call tree is inlined: no calls remain.
# CHECK: .visible .entry k(
# CHECK-NOT: call
# CHECK-DAG: sqrt.rn.f32
# CHECK-DAG: ex2.approx
