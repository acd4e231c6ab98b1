"""saxpy bandwidth on the GPU: out = a * x + y over 2^27 float32 (1.5 GiB moved).

Median of RUNS timed launches (CUDA events around each), in GB/s counting 12 bytes per
element, for kaji beside CuPy's ElementwiseKernel, numba-cuda and a device-to-device
copy of the same bytes' worth (the ceiling), when importable.

    python bench/saxpy_bandwidth.py [--runs 20] [--log2n 27]
"""

import argparse
import statistics

import numpy as np


def gbps(n, seconds):
    return 12 * n / seconds / 1e9


def time_events(launch, event, elapsed_ms, runs):
    """Median seconds of one launch, timed by events on the default stream."""
    launch()
    samples = []
    for _ in range(runs):
        start, stop = event(), event()
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        samples.append(elapsed_ms(start, stop) / 1e3)
    return statistics.median(samples)


def method_elapsed_ms(start, stop):
    return start.elapsed_time(stop)


def bench_kaji(n, runs):
    import kaji

    @kaji.jit
    def saxpy(out, a, x, y):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    x = kaji.to_device(np.random.rand(n).astype(np.float32))
    y = kaji.to_device(np.random.rand(n).astype(np.float32))
    out = kaji.device_array_like(x)
    a = np.float32(2.0)
    launch = saxpy[(n + 255) // 256, 256]
    seconds = time_events(lambda: launch(out, a, x, y), kaji.event, method_elapsed_ms, runs)
    expected = 2.0 * x.copy_to_host() + y.copy_to_host()
    np.testing.assert_allclose(out.copy_to_host(), expected, rtol=1e-6)
    return gbps(n, seconds)


def bench_cupy(n, runs):
    import cupy as cp

    kernel = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 out",
                                  "out = a * x + y", "saxpy")
    x = cp.random.rand(n, dtype=cp.float32)
    y = cp.random.rand(n, dtype=cp.float32)
    out = cp.empty_like(x)
    a = np.float32(2.0)
    seconds = time_events(lambda: kernel(a, x, y, out), cp.cuda.Event,
                          cp.cuda.get_elapsed_time, runs)
    return gbps(n, seconds)


def bench_copy(n, runs):
    import cupy as cp

    src = cp.random.rand(3 * n // 2, dtype=cp.float32)  # read + write = 12 bytes / element
    dst = cp.empty_like(src)
    seconds = time_events(lambda: cp.copyto(dst, src), cp.cuda.Event,
                          cp.cuda.get_elapsed_time, runs)
    return gbps(n, seconds)


def bench_numba(n, runs):
    np.row_stack = getattr(np, "row_stack", np.vstack)
    from numba import cuda

    @cuda.jit
    def saxpy(out, a, x, y):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    x = cuda.to_device(np.random.rand(n).astype(np.float32))
    y = cuda.to_device(np.random.rand(n).astype(np.float32))
    out = cuda.device_array_like(x)
    a = np.float32(2.0)
    launch = saxpy[(n + 255) // 256, 256]
    seconds = time_events(lambda: launch(out, a, x, y), cuda.event, method_elapsed_ms, runs)
    return gbps(n, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--log2n", type=int, default=27)
    args = parser.parse_args()
    n = 1 << args.log2n
    results = {}
    for name, bench in [("kaji", bench_kaji), ("cupy elementwise", bench_cupy),
                        ("numba-cuda", bench_numba), ("device copy", bench_copy)]:
        try:
            results[name] = bench(n, args.runs)
        except ImportError as error:
            print(f"{name:18s} skipped: {error}")
    print(f"saxpy on 2^{args.log2n} float32, median of {args.runs} launches")
    base = results.get("kaji")
    for name, rate in results.items():
        ratio = f"kaji is {base / rate:5.2f}x this" if base else ""
        print(f"{name:18s} {rate:8.1f} GB/s  {ratio}")


if __name__ == "__main__":
    main()
