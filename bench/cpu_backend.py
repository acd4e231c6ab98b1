"""kaji's cpu target beside numpy (and numba when importable) on two memory-bound kernels.

- saxpy: out = a * x + y over 2^24 float32 (12 bytes per element moved);
- stencil: 2-D 5-point average over 4096 x 4096 float32 (8 bytes per element: read u, write
  out; the neighbours come from cache).

Each line is the median of RUNS timed calls after one warm-up (which compiles), in ms and
GB/s, and the ratio of its throughput to numpy's. numba's @njit(parallel=True) runs when numba
imports; numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1, a Python interpreter of kernels) runs
in a subprocess on a small size only, and is reported against numpy on that size.

    python bench/cpu_backend.py [--runs 7] [--log2n 24] [--side 4096]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

import kaji

THREADS = 256


def median_seconds(call, runs):
    call()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def report(name, seconds, nbytes, baseline=None):
    rate = nbytes / seconds / 1e9
    ratio = "" if baseline is None else f"  {baseline / seconds:5.2f}x numpy"
    print(f"  {name:<34} {seconds * 1e3:9.2f} ms {rate:8.2f} GB/s{ratio}")


def saxpy_kernel(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


def stencil_kernel(out, u):
    j, i = kaji.grid(2)  # x, the fastest thread index, walks the contiguous axis
    if 0 < i < u.shape[0] - 1 and 0 < j < u.shape[1] - 1:
        out[i, j] = np.float32(0.2) * (u[i, j] + u[i - 1, j] + u[i + 1, j] + u[i, j - 1] +
                                       u[i, j + 1])


def numpy_stencil(out, u):
    out[1:-1, 1:-1] = np.float32(0.2) * (u[1:-1, 1:-1] + u[:-2, 1:-1] + u[2:, 1:-1] +
                                         u[1:-1, :-2] + u[1:-1, 2:])


def kaji_kernels():
    warnings.simplefilter("ignore", kaji.TargetFallbackWarning)
    return {(name, check): kaji.jit(target="cpu", boundscheck=check)(func)
            for name, func in [("saxpy", saxpy_kernel), ("stencil", stencil_kernel)]
            for check in (True, False)}


def numba_njit_functions():
    try:
        import numba
    except ImportError:
        return None

    @numba.njit(parallel=True)
    def saxpy(out, a, x, y):
        for i in numba.prange(x.size):
            out[i] = a * x[i] + y[i]

    @numba.njit(parallel=True)
    def stencil(out, u):
        for i in numba.prange(1, u.shape[0] - 1):
            for j in range(1, u.shape[1] - 1):
                out[i, j] = np.float32(0.2) * (u[i, j] + u[i - 1, j] + u[i + 1, j] +
                                               u[i, j - 1] + u[i, j + 1])

    return saxpy, stencil


def bench_saxpy(n, runs, kernels, njit):
    print(f"saxpy, 2^{n.bit_length() - 1} float32 ({12 * n / 1e6:.0f} MB moved):")
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    a = np.float32(2.5)
    nbytes = 12 * n
    base = median_seconds(lambda: a * x + y, runs)
    report("numpy a*x+y", base, nbytes)
    expected = a * x + y
    blocks = (n + THREADS - 1) // THREADS
    for check in (True, False):
        out = np.empty_like(x)
        launch = kernels["saxpy", check][blocks, THREADS]
        seconds = median_seconds(lambda: launch(out, a, x, y), runs)
        np.testing.assert_allclose(out, expected, rtol=1e-6)
        report(f"kaji cpu, boundscheck={check}", seconds, nbytes, base)
    if njit:
        out = np.empty_like(x)
        seconds = median_seconds(lambda: njit[0](out, a, x, y), runs)
        report("numba @njit(parallel=True)", seconds, nbytes, base)


def bench_stencil(side, runs, kernels, njit):
    print(f"5-point stencil, {side}x{side} float32 ({8 * side * side / 1e6:.0f} MB moved):")
    u = np.random.default_rng(1).random((side, side), dtype=np.float32)
    nbytes = 8 * side * side
    expected = np.zeros_like(u)
    base = median_seconds(lambda: numpy_stencil(expected, u), runs)
    report("numpy slicing", base, nbytes)
    block = (THREADS, 1)
    grid = ((side + THREADS - 1) // THREADS, side)
    for check in (True, False):
        out = np.zeros_like(u)
        launch = kernels["stencil", check][grid, block]
        seconds = median_seconds(lambda: launch(out, u), runs)
        np.testing.assert_allclose(out, expected, rtol=1e-5)
        report(f"kaji cpu, boundscheck={check}", seconds, nbytes, base)
    if njit:
        out = np.zeros_like(u)
        seconds = median_seconds(lambda: njit[1](out, u), runs)
        report("numba @njit(parallel=True)", seconds, nbytes, base)


SIMULATOR_SCRIPT = """
import statistics, time, numpy as np
from numba import cuda

@cuda.jit
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

n = {n}
x = np.random.rand(n).astype(np.float32); y = np.random.rand(n).astype(np.float32)
out = np.empty_like(x)
samples = []
for _ in range({runs}):
    start = time.perf_counter(); saxpy[(n + 255) // 256, 256](out, np.float32(2.5), x, y)
    samples.append(time.perf_counter() - start)
print(statistics.median(samples))
"""


def bench_cuda_simulator(runs):
    try:
        import numba  # noqa: F401
    except ImportError:
        print("numba CUDA simulator: numba is not importable; skipped")
        return
    n = 1 << 12
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    result = subprocess.run([sys.executable, "-c", SIMULATOR_SCRIPT.format(n=n, runs=runs)],
                            env=env, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        print(f"numba CUDA simulator failed: {result.stderr.strip().splitlines()[-1]}")
        return
    x = np.random.rand(n).astype(np.float32)
    base = median_seconds(lambda: np.float32(2.5) * x + x, runs)
    print("saxpy, 2^12 float32, numba CUDA simulator (subprocess):")
    report("numpy a*x+y", base, 12 * n)
    report("numba CUDA simulator", float(result.stdout.split()[-1]), 12 * n, base)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--log2n", type=int, default=24)
    parser.add_argument("--side", type=int, default=4096)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    print(f"kaji cpu target on {os.cpu_count()} CPUs, median of {args.runs} runs")
    kernels = kaji_kernels()
    njit = numba_njit_functions()
    if njit is None:
        print("numba is not importable: its @njit(parallel=True) lines are skipped")
    bench_saxpy(1 << args.log2n, args.runs, kernels, njit)
    bench_stencil(args.side, args.runs, kernels, njit)
    bench_cuda_simulator(args.runs)


if __name__ == "__main__":
    main()
