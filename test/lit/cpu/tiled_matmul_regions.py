# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu --no-boundscheck | %FileCheck %s
# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu | %FileCheck %s --check-prefix=SUM
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def matmul(c, a, b):
    tile_a = cuda.shared.array((16, 16), np.float32)
    tile_b = cuda.shared.array((16, 16), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * 16 + tx
    row = cuda.blockIdx.y * 16 + ty
    acc = np.float32(0)
    for t in range(a.shape[1] // 16):
        tile_a[ty, tx] = a[row, t * 16 + tx]
        tile_b[ty, tx] = b[t * 16 + ty, col]
        cuda.syncthreads()
        for k in range(16):
            acc += tile_a[ty, k] * tile_b[k, tx]
        cuda.syncthreads()
    c[row, col] = acc

# The tile loop's counter `t` is alike in every thread: each thread of the first region stores
# t + 1 to the block's slot for it (marked kaji.uniform_store). In the loop over the threads
# the store moves after the loop, and the loop copies the tiles eight floats at a time (a
# 64-bit store in it had the vectoriser pick four).
# CHECK-LABEL: define void @matmul.host_entry(
# CHECK: %[[TILE:wide.load[0-9]*]] = load <8 x float>
# CHECK-NOT: store i64
# CHECK: store <8 x float> %[[TILE]]
# CHECK-NOT: store i64
# CHECK: br i1 %{{.*}}, label %middle.block{{[0-9]*}}, label %vector.body
# CHECK: store i64 %{{.*}}, ptr %thread_storage, {{.*}}!kaji.uniform_store
# CHECK-NOT: <4 x float>

# `acc` lives across the barriers, in the block's thread storage, a slot per thread that the
# loop over k (which runs around the loop over threads) reads and writes. The block's shared
# memory reaches the regions as a parameter of its own (noalias, as the thread storage is): read
# from the implicit parameter, it was a pointer of unknown origin that might point into the
# thread storage, and the sum was stored back after every product. Now LLVM keeps the sum in a
# register through the unrolled products and stores it once per tile.
# SUM-LABEL: define void @matmul.host_entry(
# SUM: %[[SUM:[0-9]+]] = fadd <8 x float> %{{.*}}, %{{.*}}
# SUM-NOT: store
# SUM: fadd <8 x float> %[[SUM]], %{{.*}}
