"""Estimating pi with random points in the unit square, Numba's example for
numba.cuda.random, written for kaji with the Numba spelling.

    python examples/monte_carlo_pi.py

Every thread has its own xoroshiro128+ generator (element i of the state array). It runs on the
GPU when one is usable and on the CPU otherwise (KAJI_TARGET=cpu|cuda chooses); the code is
the same either way."""

import math
import sys
import warnings

import numpy as np

import kaji
from kaji import cuda
from kaji.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32


# Without a GPU kaji says once that kernels run on the CPU; this example prints the target.
warnings.simplefilter("ignore", kaji.TargetFallbackWarning)


@cuda.jit
def monte_carlo_pi(rng_states, iterations, out):
    i = cuda.grid(1)
    if i < out.size:
        inside = 0
        for _ in range(iterations):
            x = xoroshiro128p_uniform_float32(rng_states, i)
            y = xoroshiro128p_uniform_float32(rng_states, i)
            if x * x + y * y <= 1.0:
                inside += 1
        out[i] = 4.0 * inside / iterations


def main():
    threads, blocks, iterations = 256, 64, 10000
    n = threads * blocks
    rng_states = create_xoroshiro128p_states(n, seed=1)
    d_out = cuda.device_array(n, dtype=np.float32)
    monte_carlo_pi[blocks, threads](rng_states, iterations, d_out)
    estimate = float(d_out.copy_to_host().mean())
    error = abs(estimate - math.pi)
    print(f"pi ~ {estimate:.6f} from {n * iterations:,} points on target "
          f"{monte_carlo_pi.target} (error {error:.1e})")
    return 0 if error < 1e-2 else 1


if __name__ == "__main__":
    sys.exit(main())
