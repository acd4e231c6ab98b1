"""C = A @ B for square float32 matrices, register-tiled: a block of 16x16 threads computes a
64x64 tile of C, each thread a 4x4 block of it in a local-array accumulator, from 64x8 and
8x64 tiles of A and B staged through shared memory."""

import numpy as np
from kaji import cuda
from problem import Problem

BLOCK_TILE = 64
DEPTH = 8
THREAD_TILE = 4
SIDE = BLOCK_TILE // THREAD_TILE  # threads along each side of the block
THREADS = SIDE * SIDE


@cuda.jit
def sgemm_register_tiled(c, a, b):
    tile_a = cuda.shared.array((DEPTH, BLOCK_TILE), np.float32)  # A's tile, transposed
    tile_b = cuda.shared.array((DEPTH, BLOCK_TILE), np.float32)
    acc = cuda.local.array((THREAD_TILE, THREAD_TILE), np.float32)
    a_column = cuda.local.array(THREAD_TILE, np.float32)
    b_row = cuda.local.array(THREAD_TILE, np.float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    thread = ty * SIDE + tx
    row0 = cuda.blockIdx.y * BLOCK_TILE
    col0 = cuda.blockIdx.x * BLOCK_TILE
    for i in range(THREAD_TILE):
        for j in range(THREAD_TILE):
            acc[i, j] = 0
    for k0 in range(0, a.shape[1], DEPTH):
        for load in range(BLOCK_TILE * DEPTH // THREADS):
            element = thread + load * THREADS
            tile_a[element % DEPTH, element // DEPTH] = a[row0 + element // DEPTH,
                                                          k0 + element % DEPTH]
            tile_b[element // BLOCK_TILE, element % BLOCK_TILE] = b[
                k0 + element // BLOCK_TILE, col0 + element % BLOCK_TILE]
        cuda.syncthreads()
        for k in range(DEPTH):
            for i in range(THREAD_TILE):
                a_column[i] = tile_a[k, ty + i * SIDE]
            for j in range(THREAD_TILE):
                b_row[j] = tile_b[k, tx + j * SIDE]
            for i in range(THREAD_TILE):
                for j in range(THREAD_TILE):
                    acc[i, j] += a_column[i] * b_row[j]
        cuda.syncthreads()
    for i in range(THREAD_TILE):
        for j in range(THREAD_TILE):
            c[row0 + ty + i * SIDE, col0 + tx + j * SIDE] = acc[i, j]


def problem(rng, full):
    n = 4096 if full else 128  # a multiple of BLOCK_TILE
    a, b = (rng.random((n, n), dtype=np.float32) for _ in range(2))
    return Problem(
        grid=(n // BLOCK_TILE, n // BLOCK_TILE), block=(SIDE, SIDE),
        args=[np.zeros((n, n), np.float32), a, b], outputs=(0,),
        cuda_c_args=lambda c, a, b: [c, a, b, np.int32(n)],
        reference=lambda c, a, b: [a @ b], rtol=1e-4)
