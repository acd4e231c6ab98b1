# cuda.shared.array(0, dtype) is an extern __shared__ array sized by %dynamic_smem_size.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:])")
def reverse(a):
    tile = cuda.shared.array(0, np.float32, alignment=64)
    local = cuda.local.array(4, np.int32, alignment=32)
    i = cuda.threadIdx.x
    local[0] = i
    tile[i] = a[i]
    cuda.syncthreads()
    a[i] = tile[tile.size - 1 - local[0]]

# CHECK-DAG: extern __shared__ __align__(64) f32 dynamic_shared0[];
# CHECK-DAG: __align__(32) i32 local0[4];
# CHECK: = kaji::array<f32, 1>{dynamic_shared0, {i64(kaji::dynamic_shared_bytes() / 4)}, {4}};
