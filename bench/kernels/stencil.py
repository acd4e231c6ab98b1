"""One Jacobi step of the 2-D 5-point Laplace stencil on the interior of a float32 grid."""

import numpy as np
from kaji import cuda
from problem import Problem

BLOCK_X, BLOCK_Y = 32, 8
QUARTER = np.float32(0.25)


@cuda.jit
def stencil(out, u):
    col, row = cuda.grid(2)
    if row > 0 and row < u.shape[0] - 1 and col > 0 and col < u.shape[1] - 1:
        out[row, col] = QUARTER * (u[row - 1, col] + u[row + 1, col] + u[row, col - 1] +
                                   u[row, col + 1])


def reference(out, u):
    expected = out.copy()
    expected[1:-1, 1:-1] = QUARTER * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return [expected]


def problem(rng, full):
    rows, cols = (4096, 4096) if full else (50, 70)
    u = rng.random((rows, cols), dtype=np.float32)
    return Problem(
        grid=((cols + BLOCK_X - 1) // BLOCK_X, (rows + BLOCK_Y - 1) // BLOCK_Y),
        block=(BLOCK_X, BLOCK_Y),
        args=[np.zeros((rows, cols), np.float32), u], outputs=(0,),
        cuda_c_args=lambda out, u: [out, u, np.int32(rows), np.int32(cols)],
        reference=reference)
