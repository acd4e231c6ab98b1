# cuda.shared.array is __shared__ storage declared with the function's values; syncthreads
# is __syncthreads().
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:])")
def reverse(a):
    tile = cuda.shared.array(128, np.float32)
    i = cuda.threadIdx.x
    tile[i] = a[i]
    cuda.syncthreads()
    a[i] = tile[127 - i]

# CHECK: __shared__ __align__(16) f32 shared0[128];
# CHECK: = kaji::array<f32, 1>{shared0, {128}, {4}};
# CHECK: __syncthreads();
