# libdevice's float32 functions that take a square root (hypotf here) round it correctly, as nvcc
# and NVVM compile them (__CUDA_PREC_SQRT is 1), unless math is fast.
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[::1])' --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[::1])' --emit ptx --fastmath | %FileCheck %s --check-prefix=FAST
import math


def k(a):
    a[0] = math.hypot(a[1], a[2])

# CHECK: sqrt.rn.f32
# CHECK-NOT: sqrt.approx
# FAST: sqrt.approx
