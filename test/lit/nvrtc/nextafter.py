# math.nextafter is CUDA's nextafterf (float32) and nextafter (float64).
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import math

import kaji


@kaji.jit("void(float32[:], float64[:])")
def k(f, d):
    f[0] = math.nextafter(f[1], f[2])
    d[0] = math.nextafter(d[1], d[2])

# CHECK-DAG: nextafterf(v{{[0-9]+}}, v{{[0-9]+}})
# CHECK-DAG: nextafter(v{{[0-9]+}}, v{{[0-9]+}})
