# What NVRTC rejects is reported at the Python line its #line directive names, with NVRTC's
# log. An architecture NVRTC 13 no longer builds for is such a rejection.
# REQUIRES: nvrtc
# RUN: %not %kaji-compile %s --backend nvrtc --arch sm_50 --emit ptx 2>&1 | %FileCheck %s
import kaji


@kaji.jit("void(float64[:])")
def add(a):
    a[0] += 1.0

# CHECK: error: NVRTC rejected the CUDA C++ of this kernel
