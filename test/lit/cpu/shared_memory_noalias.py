# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu | %FileCheck %s
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def tiled_product(c, a, b):
    rows = cuda.shared.array((16, 16), np.float32)
    columns = cuda.shared.array((16, 16), np.float32)
    j = cuda.threadIdx.x
    i = cuda.threadIdx.y
    col = cuda.blockIdx.x * 16 + j
    row = cuda.blockIdx.y * 16 + i
    acc = np.float32(0)
    for t in range(a.shape[1] // 16):
        rows[i, j] = a[row, t * 16 + j]
        columns[i, j] = b[t * 16 + i, col]
        cuda.syncthreads()
        for k in range(16):
            acc += rows[i, k] * columns[k, j]
        cuda.syncthreads()
    c[row, col] = acc

# `acc` lives across the barriers, in the block's thread storage, a slot per thread that the
# loop over k (which runs around the loop over threads) reads and writes. The block's shared
# memory reaches the regions as a parameter of its own (noalias, as the thread storage is): read
# from the implicit parameter, it was a pointer of unknown origin that might point into the
# thread storage, and the sum was stored back after every product. Now LLVM keeps the sum in a
# register through the unrolled products and stores it once per tile.
# CHECK-LABEL: define void @tiled_product.host_entry(
# CHECK: %[[SUM:[0-9]+]] = fadd <8 x float> %{{.*}}, %{{.*}}
# CHECK-NOT: store
# CHECK: fadd <8 x float> %[[SUM]], %{{.*}}
