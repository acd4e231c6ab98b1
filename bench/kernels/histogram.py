"""256-bin histogram of bytes: per-block counts with shared-memory atomics, merged into the
global counts with one atomic add per bin and block."""

import numpy as np
from kaji import cuda
from problem import Problem

BINS = 256  # also the threads per block
BLOCKS = 1024


@cuda.jit
def histogram(counts, data):
    block_counts = cuda.shared.array(BINS, np.int32)
    tid = cuda.threadIdx.x
    block_counts[tid] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), data.size, cuda.gridsize(1)):
        cuda.atomic.add(block_counts, data[i], 1)
    cuda.syncthreads()
    cuda.atomic.add(counts, tid, block_counts[tid])


def problem(rng, full):
    n = 1 << 26 if full else 100_000
    data = rng.integers(0, BINS, n, dtype=np.uint8)
    return Problem(
        grid=(BLOCKS if full else 8,), block=(BINS,),
        args=[np.zeros(BINS, np.int32), data], outputs=(0,),
        cuda_c_args=lambda counts, data: [counts, data, np.int32(n)],
        reference=lambda counts, data: [np.bincount(data, minlength=BINS)])
