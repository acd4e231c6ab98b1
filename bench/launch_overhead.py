"""Launch overhead: microseconds per launch of a tiny kernel on device arrays.

Median of RUNS runs of LAUNCHES back-to-back launches each (the stream is
synchronised once at the end of a run), for kaji and, when importable, CuPy's
RawKernel, numba-cuda's @cuda.jit and a PyTorch in-place op.

    python bench/launch_overhead.py [--runs 7] [--launches 10000]
"""

import argparse
import statistics
import time

import numpy as np

N = 1024


def per_launch_us(launch, synchronize, runs, launches):
    for _ in range(100):
        launch()
    synchronize()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(launches):
            launch()
        synchronize()
        samples.append((time.perf_counter() - start) / launches * 1e6)
    return statistics.median(samples)


def bench_kaji(runs, launches):
    import kaji

    @kaji.jit
    def tiny(a):
        i = kaji.grid(1)
        if i < a.size:
            a[i] += 1.0

    a = kaji.to_device(np.zeros(N, np.float32))
    configured = tiny[N // 128, 128]
    return per_launch_us(lambda: configured(a), kaji.synchronize, runs, launches)


def bench_cupy(runs, launches):
    import cupy as cp

    kernel = cp.RawKernel(
        r"""extern "C" __global__ void tiny(float* a, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) a[i] += 1.0f;
        }""",
        "tiny",
    )
    a = cp.zeros(N, cp.float32)
    n = np.int32(N)
    return per_launch_us(
        lambda: kernel((N // 128,), (128,), (a, n)), cp.cuda.Device().synchronize, runs, launches
    )


def bench_numba(runs, launches):
    np.row_stack = getattr(np, "row_stack", np.vstack)
    from numba import cuda

    @cuda.jit
    def tiny(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1.0

    a = cuda.to_device(np.zeros(N, np.float32))
    configured = tiny[N // 128, 128]
    return per_launch_us(lambda: configured(a), cuda.synchronize, runs, launches)


def bench_torch(runs, launches):
    import torch

    a = torch.zeros(N, dtype=torch.float32, device="cuda")
    return per_launch_us(lambda: a.add_(1.0), torch.cuda.synchronize, runs, launches)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--launches", type=int, default=10000)
    args = parser.parse_args()

    results = {}
    for name, bench in [
        ("kaji", bench_kaji),
        ("cupy RawKernel", bench_cupy),
        ("numba-cuda", bench_numba),
        ("torch add_", bench_torch),
    ]:
        try:
            results[name] = bench(args.runs, args.launches)
        except ImportError as error:
            print(f"{name:16s} skipped: {error}")
    print(f"launch overhead, median of {args.runs} runs x {args.launches} launches")
    base = results.get("kaji")
    for name, us in results.items():
        ratio = f"{us / base:6.2f}x kaji" if base else ""
        print(f"{name:16s} {us:8.2f} us/launch  {ratio}")


if __name__ == "__main__":
    main()
