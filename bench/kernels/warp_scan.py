"""Inclusive prefix sum within each block of 1024 float32 values through warp shuffles: each
warp scans its 32 values with shfl_up_sync, the first warp scans the 32 warp totals, every
warp adds the totals before it (scan.py is the same step through shared memory alone)."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 1024
WARPS = THREADS // 32
ALL_LANES = 0xFFFFFFFF


@cuda.jit(device=True)
def warp_inclusive_scan(value, lane):
    offset = 1
    while offset < 32:
        below = cuda.shfl_up_sync(ALL_LANES, value, offset)
        if lane >= offset:
            value += below
        offset *= 2
    return value


@cuda.jit
def warp_scan(out, x):
    warp_totals = cuda.shared.array(WARPS, np.float32)
    i = cuda.grid(1)
    lane = cuda.laneid
    warp = cuda.threadIdx.x // 32
    value = warp_inclusive_scan(x[i], lane)
    if lane == 31:
        warp_totals[warp] = value
    cuda.syncthreads()
    if warp == 0:
        warp_totals[lane] = warp_inclusive_scan(warp_totals[lane], lane)
    cuda.syncthreads()
    if warp > 0:
        value += warp_totals[warp - 1]
    out[i] = value


def problem(rng, full):
    n = (1 << 24) if full else 8 * THREADS  # a multiple of THREADS
    x = rng.integers(0, 10, n).astype(np.float32)  # small integers: every sum is exact
    return Problem(
        grid=(n // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.float32), x], outputs=(0,),
        cuda_c_args=lambda out, x: [out, x],
        reference=lambda out, x: [np.cumsum(x.reshape(-1, THREADS), axis=1).reshape(-1)])
