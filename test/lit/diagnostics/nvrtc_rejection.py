# What NVRTC rejects is a compile error carrying NVRTC's log, at the Python line its #line
# directive names, else (as for an architecture NVRTC 13 no longer builds for) at the kernel.
# REQUIRES: nvrtc
# RUN: %not %kaji-compile %s --backend nvrtc --arch sm_50 --emit ptx 2>&1 | %FileCheck %s
import kaji


@kaji.jit("void(float64[:])")
def add(a):
    a[0] += 1.0

# CHECK: nvrtc_rejection.py:9:1: error: NVRTC rejected the CUDA C++ of this kernel (NVRTC_ERROR_INVALID_OPTION):
# CHECK-NEXT: nvrtc: error: invalid value for --gpu-architecture (-arch)
# CHECK-NEXT: def add(a):
# CHECK-NEXT: ^
