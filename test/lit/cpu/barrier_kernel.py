# RUN: %kaji-compile %s --target cpu | %FileCheck %s
from kaji import cuda


@cuda.jit("void(float32[:], float32[:])")
def block_sum(out, x):
    tile = cuda.shared.array(128, dtype=cuda.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    step = 64
    while step > 0:
        if t < step:
            tile[t] += tile[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = tile[0]

# A kernel with barriers runs one call per thread (as fibers) that yields at each barrier.
# CHECK: define void @block_sum.host_entry(
# CHECK: call void %barrier{{.*}}(ptr %executor
