"""C = A @ B for square float32 matrices, 16x16 tiles staged through shared memory."""

import numpy as np
from kaji import cuda
from problem import Problem

TILE = 16


@cuda.jit
def matmul(c, a, b):
    tile_a = cuda.shared.array((TILE, TILE), np.float32)
    tile_b = cuda.shared.array((TILE, TILE), np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + tx
    row = cuda.blockIdx.y * TILE + ty
    acc = np.float32(0)
    for t in range(a.shape[1] // TILE):
        tile_a[ty, tx] = a[row, t * TILE + tx]
        tile_b[ty, tx] = b[t * TILE + ty, col]
        cuda.syncthreads()
        for k in range(TILE):
            acc += tile_a[ty, k] * tile_b[k, tx]
        cuda.syncthreads()
    c[row, col] = acc


def problem(rng, full):
    n = 2048 if full else 64  # a multiple of TILE
    a, b = (rng.random((n, n), dtype=np.float32) for _ in range(2))
    return Problem(
        grid=(n // TILE, n // TILE), block=(TILE, TILE),
        args=[np.zeros((n, n), np.float32), a, b], outputs=(0,),
        cuda_c_args=lambda c, a, b: [c, a, b, np.int32(n)],
        reference=lambda c, a, b: [a @ b], rtol=1e-4)
