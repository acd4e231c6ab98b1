# math.* is CUDA's math library (libdevice, as the LLVM path links): sinf for float32, sin
# for float64; float16 computes in float32 (the frontend widens it); numpy's NaN-propagating
# minimum is the prelude's.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import math

import numpy as np

import kaji


@kaji.jit("void(float32[:], float64[:], float16[:], bool_[:])")
def functions(f, d, h, flags):
    f[0] = math.sin(f[1]) + math.exp(f[2]) + math.sqrt(f[3]) + f[4] ** f[5]
    d[0] = math.atan2(d[1], d[2]) + math.lgamma(d[3]) + math.floor(d[4])
    h[0] = math.cos(h[1])
    f[6] = np.minimum(f[7], f[8])
    flags[0] = math.isnan(d[5]) or math.isinf(f[9])

# CHECK-DAG: sinf(v{{[0-9]+}})
# CHECK-DAG: expf(
# CHECK-DAG: sqrtf(
# CHECK-DAG: powf(
# CHECK-DAG: atan2(v{{[0-9]+}}, v{{[0-9]+}})
# CHECK-DAG: lgamma(
# CHECK-DAG: floor(
# CHECK-DAG: cosf(v{{[0-9]+}})
# CHECK-DAG: kaji::minimum(
# CHECK-DAG: (v{{[0-9]+}} != v{{[0-9]+}})
# CHECK-DAG: (fabsf(v{{[0-9]+}}) == __int_as_float(0x7f800000))
