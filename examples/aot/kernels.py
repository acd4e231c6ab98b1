import numpy as np
from kaji import cuda


@cuda.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def stencil(out, u):
    col, row = cuda.grid(2)
    if 0 < row < u.shape[0] - 1 and 0 < col < u.shape[1] - 1:
        out[row, col] = np.float32(0.25) * (u[row - 1, col] + u[row + 1, col] + u[row, col - 1] +
                                            u[row, col + 1])
