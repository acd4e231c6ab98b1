"""out = a.T for a square float32 matrix: 32x32 tiles through shared memory (padded against
bank conflicts), 32x8 threads per block, each moving four rows."""

import numpy as np
from kaji import cuda
from problem import Problem

TILE = 32
PADDED = TILE + 1
ROWS = 8


@cuda.jit
def transpose(out, a):
    tile = cuda.shared.array((TILE, PADDED), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + tx
    row = cuda.blockIdx.y * TILE + ty
    for k in range(0, TILE, ROWS):
        tile[ty + k, tx] = a[row + k, col]
    cuda.syncthreads()
    col = cuda.blockIdx.y * TILE + tx
    row = cuda.blockIdx.x * TILE + ty
    for k in range(0, TILE, ROWS):
        out[row + k, col] = tile[tx, ty + k]


def problem(rng, full):
    n = 4096 if full else 96  # a multiple of TILE
    a = rng.random((n, n), dtype=np.float32)
    return Problem(
        grid=(n // TILE, n // TILE), block=(TILE, ROWS),
        args=[np.zeros((n, n), np.float32), a], outputs=(0,),
        cuda_c_args=lambda out, a: [out, a, np.int32(n)],
        reference=lambda out, a: [a.T])
