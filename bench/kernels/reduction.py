"""Sum of a float32 vector: grid-stride accumulation per thread, a shared-memory tree per
block, one atomic add per block."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
BLOCKS = 1024


@cuda.jit
def reduction(out, x):
    partial = cuda.shared.array(THREADS, np.float32)
    tid = cuda.threadIdx.x
    acc = np.float32(0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    partial[tid] = acc
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if tid < step:
            partial[tid] += partial[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, partial[0])


def problem(rng, full):
    n = 1 << 24 if full else 100_000
    x = rng.random(n, dtype=np.float32)
    return Problem(
        grid=(BLOCKS if full else 8,), block=(THREADS,),
        args=[np.zeros(1, np.float32), x], outputs=(0,),
        cuda_c_args=lambda out, x: [out, x, np.int32(n)],
        reference=lambda out, x: [np.array([x.sum(dtype=np.float64)])], rtol=1e-4)
