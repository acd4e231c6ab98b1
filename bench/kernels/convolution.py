"""1-D convolution of a float32 signal with a 17-tap filter, zero outside the signal."""

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
RADIUS = 8
TAPS = 2 * RADIUS + 1


@cuda.jit
def convolution(out, x, weights):
    i = cuda.grid(1)
    if i < x.size:
        acc = np.float32(0)
        for k in range(TAPS):
            j = i + k - RADIUS
            if j >= 0 and j < x.size:
                acc += weights[k] * x[j]
        out[i] = acc


def reference(out, x, weights):
    return [np.convolve(x.astype(np.float64), weights[::-1].astype(np.float64), mode="same")]


def problem(rng, full):
    n = 1 << 24 if full else 10_000
    x = rng.random(n, dtype=np.float32)
    weights = rng.random(TAPS, dtype=np.float32)
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros(n, np.float32), x, weights], outputs=(0,),
        cuda_c_args=lambda out, x, weights: [out, x, weights, np.int32(n)],
        reference=reference, rtol=1e-5)
