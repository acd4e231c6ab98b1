# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import math

import kaji


@kaji.jit("void(float32[:], float64[:])")
def k(f, d):
    f[0] = math.nextafter(f[1], f[2])
    d[0] = math.nextafter(d[1], d[2])

# libdevice's __nv_nextafterf and __nv_nextafter are linked and inlined: no calls remain.
# CHECK: .visible .entry k(
# CHECK-NOT: call
# CHECK: ret;
