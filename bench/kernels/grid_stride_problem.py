"""The problem of the two grid-stride sums (grid_stride_sum.py, grid_stride_sum_while.py):
2**27 float32 (512 MB, ten times an H100's L2), so that each thread's loop streams from DRAM
and keeping several loads in flight is what counts."""

import numpy as np
from problem import Problem

THREADS = 256
BLOCKS = 1024


def problem(rng, full):
    n = 1 << 27 if full else 100_000
    blocks = BLOCKS if full else 8
    threads = blocks * THREADS
    x = rng.random(n, dtype=np.float32)
    return Problem(
        grid=(blocks,), block=(THREADS,),
        args=[np.zeros(threads, np.float32), x], outputs=(0,),
        cuda_c_args=lambda partials, x: [partials, x, np.int32(n)],
        reference=lambda partials, x: [np.array([x[t::threads].sum(dtype=np.float64)
                                                 for t in range(threads)])],
        rtol=1e-4)
