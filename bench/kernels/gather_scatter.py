"""Indirect indices: gathered[i] = x[index[i]] and scattered[index[i]] = y[i] for a random
permutation `index` of int64 (NumPy's index type), each access a random 4-byte read or write
in a 64 MB array."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256


@cuda.jit
def gather_scatter(gathered, scattered, x, y, index):
    i = cuda.grid(1)
    if i < index.size:
        j = index[i]
        gathered[i] = x[j]
        scattered[j] = y[i]


def reference(gathered, scattered, x, y, index):
    out = np.empty_like(y)
    out[index] = y
    return [x[index], out]


def problem(rng, full):
    n = 1 << 24 if full else 10_000
    x, y = (rng.random(n, dtype=np.float32) for _ in range(2))
    index = rng.permutation(n)
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.float32), np.zeros(n, np.float32), x, y, index], outputs=(0, 1),
        cuda_c_args=lambda gathered, scattered, x, y, index:
            [gathered, scattered, x, y, index, np.int32(n)],
        reference=reference)
