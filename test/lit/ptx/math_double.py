# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import math

import kaji


@kaji.jit("void(float64[:], float64[:])")
def k(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = math.log(x[i]) * math.atan2(x[i], 2.0) + math.floor(x[i])

# CHECK: .visible .entry k(
# CHECK: ld.global.f64
# CHECK: cvt.rmi.f64.f64
# CHECK: st.global.f64
