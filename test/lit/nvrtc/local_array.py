# cuda.local.array is per-thread storage declared with the function's values (one
# allocation however often a loop reaches it), C-ordered with byte strides.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:])")
def scratch_row(a):
    scratch = cuda.local.array((2, 3), np.float32)
    i = cuda.grid(1)
    scratch[1, i % 3] = a[i]
    a[i] = scratch[1, i % 3] * 2.0

# CHECK: __align__(16) f32 local0[6];
# CHECK: = kaji::array<f32, 2>{local0, {2, 3}, {12, 4}};
