"""GPU ufunc speed: out = a * x + y as a vectorized scalar function over 2^24 float32 device
arrays, kaji's cuda.vectorize beside CuPy's ElementwiseKernel and numba-cuda's
cuda.vectorize (each skipped, and named, when not importable).

Median wall seconds per call (device arrays in and out, so no host copies; each run ends
with a synchronize), and the ratio of kaji's time to each peer's. The call path counts:
vectorize resolves types and allocates its output per call, as Numba's does ("kaji, out="
writes into an output allocated once, so the difference is what allocating costs).

    python bench/vectorize.py [--runs 20] [--log2n 24]
"""

import argparse

import numpy as np
from timing import median_per_call

SIGNATURE = "float32(float32, float32, float32)"


def fused_multiply_add(a, x, y):
    return a * x + y


def host_inputs(n):
    rng = np.random.default_rng(0)
    return [rng.random(n, dtype=np.float32) for _ in range(3)]


def _kaji_ufunc_and_args(n):
    from kaji import cuda

    ufunc = cuda.vectorize([SIGNATURE], target="cuda")(fused_multiply_add)
    hosts = host_inputs(n)
    args = [cuda.to_device(host) for host in hosts]
    np.testing.assert_allclose(ufunc(*args).copy_to_host(), hosts[0] * hosts[1] + hosts[2],
                               rtol=1e-6)
    return ufunc, args


def bench_kaji(n, runs):
    import kaji

    ufunc, args = _kaji_ufunc_and_args(n)
    return median_per_call(lambda: ufunc(*args), runs, 10, kaji.synchronize, warmup=5)


def bench_kaji_out(n, runs):
    """The same call writing into an output allocated once: what allocating costs per call."""
    import kaji
    from kaji import cuda

    ufunc, args = _kaji_ufunc_and_args(n)
    out = cuda.device_array(n, np.float32)
    return median_per_call(lambda: ufunc(*args, out=out), runs, 10, kaji.synchronize, warmup=5)


def bench_cupy(n, runs):
    import cupy as cp

    kernel = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 out",
                                  "out = a * x + y", "fused_multiply_add")
    args = [cp.asarray(host) for host in host_inputs(n)]
    return median_per_call(lambda: kernel(*args), runs, 10, cp.cuda.Device().synchronize,
                           warmup=5)


def bench_numba(n, runs):
    np.row_stack = getattr(np, "row_stack", np.vstack)
    from numba import cuda

    ufunc = cuda.vectorize([SIGNATURE])(fused_multiply_add)
    args = [cuda.to_device(host) for host in host_inputs(n)]
    return median_per_call(lambda: ufunc(*args), runs, 10, cuda.synchronize, warmup=5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--log2n", type=int, default=24)
    args = parser.parse_args()
    n = 1 << args.log2n
    results = {}
    for name, bench in [("kaji", bench_kaji), ("kaji, out=", bench_kaji_out),
                        ("cupy elementwise", bench_cupy),
                        ("numba-cuda", bench_numba)]:
        try:
            results[name] = bench(n, args.runs)
        except ImportError as error:
            print(f"{name:18s} skipped: {error}")
    print(f"a * x + y on 2^{args.log2n} float32 device arrays, median of {args.runs} runs")
    base = results.get("kaji")
    for name, seconds in results.items():
        ratio = f"kaji takes {base / seconds:5.2f}x this" if base else ""
        print(f"{name:18s} {seconds * 1e6:10.1f} us/call  {ratio}")


if __name__ == "__main__":
    main()
