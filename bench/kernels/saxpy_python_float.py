"""saxpy.py's out = a*x + y with `a` passed as a Python float, as users write it: the scalar
is a float64 in the kernel (as in Numba), so a * x[i] + y[i] is computed in float64 and
rounded to float32 when stored; the CUDA C++ kernel takes a double the same way."""

import numpy as np
from kaji import cuda
from problem import Problem
from saxpy import THREADS


@cuda.jit
def saxpy_python_float(out, a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


def problem(rng, full):
    n = 1 << 24 if full else 10_000
    x, y = (rng.random(n, dtype=np.float32) for _ in range(2))
    a = 2.5
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.float32), a, x, y], outputs=(0,),
        cuda_c_args=lambda out, a, x, y: [out, np.float64(a), x, y, np.int32(n)],
        reference=lambda out, a, x, y: [(a * x.astype(np.float64) + y).astype(np.float32)])
