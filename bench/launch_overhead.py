"""Launch overhead: microseconds per launch, medians, side by side.

Two forms, each the median of RUNS runs of LAUNCHES back-to-back launches (the device is
synchronised once at the end of a run):

* pre-configured: ``k = tiny[8, 128]`` once, then ``k(a)`` — one array argument;
* configured at each call, as users write it: ``saxpy[1024, 256](out, np.float32(2), x, y)``
  (four arguments) with kaji device arrays, CuPy arrays and PyTorch tensors passed to the same
  kaji kernel, beside numba-cuda's ``@cuda.jit`` and CuPy's RawKernel doing the same.

Libraries that are not importable are skipped and named.

    python bench/launch_overhead.py [--runs 7] [--launches 10000]
"""

import argparse

import numpy as np
from timing import median_per_call

N = 1024 * 256
GRID, BLOCK = N // 256, 256

SAXPY_CUDA_C = r"""extern "C" __global__ void saxpy(float* out, float a, const float* x,
                                               const float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}"""


def per_launch_us(launch, synchronize, runs, launches):
    return median_per_call(launch, runs, launches, synchronize) * 1e6


def kaji_kernels():
    import kaji

    @kaji.jit(target="cuda")
    def tiny(a):
        i = kaji.grid(1)
        if i < a.size:
            a[i] += 1.0

    @kaji.jit(target="cuda")
    def saxpy(out, a, x, y):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    return kaji, tiny, saxpy


def bench_kaji_preconfigured(runs, launches):
    kaji, tiny, _ = kaji_kernels()
    a = kaji.to_device(np.zeros(1024, np.float32))
    configured = tiny[8, 128]
    return per_launch_us(lambda: configured(a), kaji.synchronize, runs, launches)


def kaji_saxpy_on(make_array, synchronize, runs, launches):
    kaji, _, saxpy = kaji_kernels()
    out, x, y = (make_array(np.full(N, v, np.float32)) for v in (0, 1, 2))
    a = np.float32(2)
    result = per_launch_us(lambda: saxpy[GRID, BLOCK](out, a, x, y), synchronize, runs, launches)
    expected = np.full(N, 4, np.float32)
    np.testing.assert_array_equal(np.asarray(to_host(out)), expected)
    return result


def to_host(array):
    if hasattr(array, "copy_to_host"):
        return array.copy_to_host()
    if hasattr(array, "get"):
        return array.get()
    return array.cpu().numpy()


def bench_kaji_arrays(runs, launches):
    import kaji

    return kaji_saxpy_on(kaji.to_device, kaji.synchronize, runs, launches)


def bench_kaji_cupy(runs, launches):
    import cupy as cp

    return kaji_saxpy_on(cp.asarray, cp.cuda.Device().synchronize, runs, launches)


def bench_kaji_torch(runs, launches):
    import torch

    return kaji_saxpy_on(lambda host: torch.from_numpy(host).cuda(), torch.cuda.synchronize,
                         runs, launches)


def bench_numba(runs, launches):
    np.row_stack = getattr(np, "row_stack", np.vstack)
    from numba import cuda

    @cuda.jit
    def saxpy(out, a, x, y):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    out, x, y = (cuda.to_device(np.full(N, v, np.float32)) for v in (0, 1, 2))
    a = np.float32(2)
    return per_launch_us(lambda: saxpy[GRID, BLOCK](out, a, x, y), cuda.synchronize, runs,
                         launches)


def bench_cupy_rawkernel(runs, launches):
    import cupy as cp

    kernel = cp.RawKernel(SAXPY_CUDA_C, "saxpy")
    out, x, y = (cp.full(N, v, cp.float32) for v in (0, 1, 2))
    a, n = np.float32(2), np.int32(N)
    return per_launch_us(lambda: kernel((GRID,), (BLOCK,), (out, a, x, y, n)),
                         cp.cuda.Device().synchronize, runs, launches)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--launches", type=int, default=10000)
    args = parser.parse_args()

    results = {}
    for name, bench in [
        ("kaji, pre-configured tiny[8, 128](a)", bench_kaji_preconfigured),
        ("kaji saxpy[g, b](4 args), kaji arrays", bench_kaji_arrays),
        ("kaji saxpy[g, b](4 args), CuPy arrays", bench_kaji_cupy),
        ("kaji saxpy[g, b](4 args), torch tensors", bench_kaji_torch),
        ("numba-cuda saxpy[g, b](4 args)", bench_numba),
        ("CuPy RawKernel saxpy (5 args)", bench_cupy_rawkernel),
    ]:
        try:
            results[name] = bench(args.runs, args.launches)
        except ImportError as error:
            print(f"{name:42s} skipped: {error}")
    print(f"launch overhead, median of {args.runs} runs x {args.launches} launches")
    base = results.get("kaji saxpy[g, b](4 args), kaji arrays")
    for name, us in results.items():
        ratio = f"{us / base:6.2f}x kaji arrays  {us - base:+6.2f} us" if base else ""
        print(f"{name:42s} {us:8.2f} us/launch  {ratio}")


if __name__ == "__main__":
    main()
