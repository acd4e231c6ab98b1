"""Inclusive prefix sum of int32 values within each block of 1024 (Hillis-Steele in shared
memory): the block-level step of a full scan."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 1024


@cuda.jit
def scan(out, x):
    buffer = cuda.shared.array(THREADS, np.int32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buffer[tid] = x[i]
    cuda.syncthreads()
    offset = 1
    while offset < THREADS:
        addend = 0
        if tid >= offset:
            addend = buffer[tid - offset]
        cuda.syncthreads()
        buffer[tid] += addend
        cuda.syncthreads()
        offset *= 2
    out[i] = buffer[tid]


def problem(rng, full):
    n = (1 << 24) if full else 8 * THREADS  # a multiple of THREADS
    x = rng.integers(0, 10, n, dtype=np.int32)
    return Problem(
        grid=(n // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.int32), x], outputs=(0,),
        cuda_c_args=lambda out, x: [out, x],
        reference=lambda out, x: [np.cumsum(x.reshape(-1, THREADS), axis=1).reshape(-1)])
