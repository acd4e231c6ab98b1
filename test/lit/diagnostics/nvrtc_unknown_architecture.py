# An architecture the loaded NVRTC does not compile for (NVRTC 13 no longer builds for sm_50)
# is named, with those it does, before NVRTC runs.
# REQUIRES: nvrtc
# RUN: %not %kaji-compile %s --backend nvrtc --arch sm_50 --emit ptx 2>&1 | %FileCheck %s
import kaji


@kaji.jit("void(float64[:])")
def add(a):
    a[0] += 1.0

# CHECK: error: unknown GPU architecture 'sm_50'; NVRTC {{[0-9]+\.[0-9]+}} knows: {{.*}}sm_90
