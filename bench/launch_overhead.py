"""Launch overhead: microseconds per launch, medians, side by side.

Two forms, each the median of RUNS runs of LAUNCHES back-to-back launches (the device is
synchronised once at the end of a run):

* pre-configured: ``k = tiny[8, 128]`` once, then ``k(a)`` — one array argument;
* configured at each call, as users write it: ``saxpy[1024, 256](out, np.float32(2), x, y)``
  (four arguments) with kaji device arrays, CuPy arrays and PyTorch tensors passed to the same
  kaji kernel, beside numba-cuda's ``@cuda.jit`` and CuPy's RawKernel doing the same.

The forms take turns (one run of each per round), and every saxpy result is checked after each
run. The driver's own floor on the same machine: bench/launch_floor.cu.

Libraries that are not importable are skipped and named.

    python bench/launch_overhead.py [--runs 7] [--launches 10000]
"""

import argparse
import statistics

import numpy as np
from timing import median_per_call

N = 1024 * 256
GRID, BLOCK = N // 256, 256

SAXPY_CUDA_C = r"""extern "C" __global__ void saxpy(float* out, float a, const float* x,
                                               const float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}"""


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


# Each form: a function making (launch, synchronize, check), where check() runs after every
# run of every form and asserts what the launches computed.

def form_kaji_preconfigured():
    kaji, tiny, _ = kaji_kernels()
    a = kaji.to_device(np.zeros(1024, np.float32))
    configured = tiny[8, 128]
    return lambda: configured(a), kaji.synchronize, lambda: None


def kaji_saxpy_on(make_array, to_host, synchronize):
    kaji, _, saxpy = kaji_kernels()
    out, x, y = (make_array(np.full(N, v, np.float32)) for v in (0, 1, 2))
    a = np.float32(2)

    def check():
        np.testing.assert_array_equal(np.asarray(to_host(out)), np.full(N, 4, np.float32))

    return lambda: saxpy[GRID, BLOCK](out, a, x, y), synchronize, check


def form_kaji_arrays():
    import kaji

    return kaji_saxpy_on(kaji.to_device, lambda array: array.copy_to_host(), kaji.synchronize)


def form_kaji_cupy():
    import cupy as cp

    return kaji_saxpy_on(cp.asarray, lambda array: array.get(), cp.cuda.Device().synchronize)


def form_kaji_torch():
    import torch

    return kaji_saxpy_on(lambda host: torch.from_numpy(host).cuda(),
                         lambda tensor: tensor.cpu().numpy(), torch.cuda.synchronize)


def form_numba():
    np.row_stack = getattr(np, "row_stack", np.vstack)
    from numba import cuda

    @cuda.jit
    def saxpy(out, a, x, y):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    out, x, y = (cuda.to_device(np.full(N, v, np.float32)) for v in (0, 1, 2))
    a = np.float32(2)
    return lambda: saxpy[GRID, BLOCK](out, a, x, y), cuda.synchronize, lambda: None


def form_cupy_rawkernel():
    import cupy as cp

    kernel = cp.RawKernel(SAXPY_CUDA_C, "saxpy")
    out, x, y = (cp.full(N, v, cp.float32) for v in (0, 1, 2))
    a, n = np.float32(2), np.int32(N)
    return (lambda: kernel((GRID,), (BLOCK,), (out, a, x, y, n)),
            cp.cuda.Device().synchronize, lambda: None)


FORMS = [
    ("kaji, pre-configured tiny[8, 128](a)", form_kaji_preconfigured),
    ("kaji saxpy[g, b](4 args), kaji arrays", form_kaji_arrays),
    ("kaji saxpy[g, b](4 args), CuPy arrays", form_kaji_cupy),
    ("kaji saxpy[g, b](4 args), torch tensors", form_kaji_torch),
    ("numba-cuda saxpy[g, b](4 args)", form_numba),
    ("CuPy RawKernel saxpy (5 args)", form_cupy_rawkernel),
]
BASE = "kaji saxpy[g, b](4 args), kaji arrays"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--launches", type=int, default=10000)
    args = parser.parse_args()

    forms = {}
    for name, make in FORMS:
        try:
            forms[name] = make()
        except ImportError as error:
            print(f"{name:42s} skipped: {error}")
    # The forms take turns, one run each per round, so that a machine that speeds up or slows
    # down during the benchmark moves every column alike.
    samples = {name: [] for name in forms}
    for _ in range(args.runs):
        for name, (launch, synchronize, check) in forms.items():
            samples[name].append(median_per_call(launch, 1, args.launches, synchronize) * 1e6)
            check()
    print(f"launch overhead, median of {args.runs} runs x {args.launches} launches, "
          "the forms in turn")
    base = statistics.median(samples[BASE]) if BASE in samples else None
    for name, runs in samples.items():
        us = statistics.median(runs)
        ratio = f"{us / base:6.2f}x kaji arrays  {us - base:+6.2f} us" if base else ""
        print(f"{name:42s} {us:8.2f} us/launch  {ratio}")


if __name__ == "__main__":
    main()
