"""out = a*x + y: memory bound, one element per thread."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256


@cuda.jit
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


def problem(rng, full):
    n = 1 << 24 if full else 10_000
    x, y = (rng.random(n, dtype=np.float32) for _ in range(2))
    a = np.float32(2.5)
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.float32), a, x, y], outputs=(0,),
        cuda_c_args=lambda out, a, x, y: [out, a, x, y, np.int32(n)],
        reference=lambda out, a, x, y: [a * x + y])
