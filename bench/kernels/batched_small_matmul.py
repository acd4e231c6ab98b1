"""C[m] = A[m] @ B[m] for a batch of 4x4 float32 matrices, a thread per matrix: three-
dimensional arrays indexed through their strides, every loop's trip count a constant."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
N = 4


@cuda.jit
def batched_small_matmul(c, a, b):
    m = cuda.grid(1)
    if m < c.shape[0]:
        for i in range(N):
            for j in range(N):
                acc = np.float32(0)
                for k in range(N):
                    acc += a[m, i, k] * b[m, k, j]
                c[m, i, j] = acc


def problem(rng, full):
    batch = 1 << 22 if full else 1000
    a, b = (rng.random((batch, N, N), dtype=np.float32) for _ in range(2))
    return Problem(
        grid=((batch + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros((batch, N, N), np.float32), a, b], outputs=(0,),
        cuda_c_args=lambda c, a, b: [c, a, b, np.int32(batch)],
        reference=lambda c, a, b: [a @ b])
