# C = A + B over 2-D float32 matrices, one element per thread on a 2-D grid.
from kaji import cuda


@cuda.jit("void(float32[:, :], float32[:, :], float32[:, :])")
def matrix_add(c, a, b):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        c[i, j] = a[i, j] + b[i, j]
