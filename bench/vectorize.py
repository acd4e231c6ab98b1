"""GPU ufunc speed: kaji's cuda.vectorize, cuda.reduce and cuda.guvectorize beside CuPy's
ElementwiseKernel and ReductionKernel on the same work, and numba-cuda's ufuncs (each peer
skipped, and named, when not importable). Cases, on float32 device arrays of n elements:

    axpy           out = a * x + y, vectorize (contiguous inputs)
    axpy strided   the same on inputs that take every second element of 2n
    sum            the sum of all n elements, cuda.reduce (result left on the device)
    row norms      sqrt(sum of squares) of each row of an (n/4, 4) array, a '(k)->()'
                   guvectorize
    row norms strided  the same on the (n/4, 4) view taking every second column of (n/4, 8)

Median wall seconds per call (device arrays in and out, so no host copies; each run of 10
calls ends with a synchronize), and the ratio of kaji's time to each peer's. The call path
counts: vectorize and guvectorize resolve types and allocate their output per call, as
Numba's do ("kaji, out=" writes into an output allocated once, so the difference is what
allocating costs).

    python bench/vectorize.py [--runs 20] [--log2n 24 28] [--cases axpy sum]
"""

import argparse
import functools
import math

import numpy as np
from timing import median_per_call

CASES = ("axpy", "axpy strided", "sum", "row norms", "row norms strided")
ROW = 4
AXPY = "float32(float32, float32, float32)"


def fused_multiply_add(a, x, y):
    return a * x + y


def add(a, b):
    return a + b


def row_norm(row, norm):
    total = 0.0
    for k in range(row.shape[0]):
        total += row[k] * row[k]
    norm[0] = math.sqrt(total)


@functools.lru_cache(maxsize=2)
def host_inputs(n):
    rng = np.random.default_rng(0)
    return tuple(rng.random(n, dtype=np.float32) for _ in range(3))


CHECKED = 1 << 20  # elements (rows for row norms) compared, from the start: checks stay quick


def step_of(case):
    """How many elements of the inputs each element of the case's operands takes."""
    return 2 if case.endswith("strided") else 1


def rows_of(array, n, step):
    """The (n/4, 4) operand of the row-norm cases: every `step`-th column of (n/4, 4*step)."""
    return array.reshape(n // ROW, ROW * step)[:, ::step]


def expected(case, hosts, step):
    if case == "sum":
        return np.float32(hosts[0].sum(dtype=np.float64))
    if case.startswith("row norms"):
        elements = min(len(hosts[0]) // step, CHECKED * ROW)
        rows = rows_of(hosts[0][:elements * step], elements, step)
        return np.sqrt((rows.astype(np.float64) ** 2).sum(axis=1)).astype(np.float32)
    a, x, y = (h[:CHECKED * step:step] for h in hosts)
    return a * x + y


def check(case, result, hosts, step):
    # At 2^28 elements a float32 sum differs from float64's in the fourth digit.
    result = np.asarray(result) if case == "sum" else np.asarray(result)[:CHECKED]
    np.testing.assert_allclose(result, expected(case, hosts, step), rtol=1e-3)


def operands(case, n, to_device):
    """(host inputs, step, the whole device copies, the operands: every step-th element)."""
    step = step_of(case)
    hosts = host_inputs(n * step)
    whole = [to_device(h) for h in hosts]
    return hosts, step, whole, [w[::step] for w in whole]


def timer(runs, synchronize):
    return functools.partial(median_per_call, runs=runs, calls=10, synchronize=synchronize,
                             warmup=5)


def numba_api_timings(cuda, name, case, n, runs, also_out):
    """The case through `cuda`, kaji.cuda or numba.cuda (the same API), timed as `name`; with
    `also_out`, the ufuncs writing into an output allocated once too ("NAME, out=")."""
    hosts, step, whole, arrays = operands(case, n, cuda.to_device)
    time = timer(runs, cuda.synchronize)
    if case.startswith("axpy"):
        ufunc = cuda.vectorize([AXPY])(fused_multiply_add)
        check(case, ufunc(*arrays).copy_to_host(), hosts, step)
        out = cuda.device_array(n, np.float32)
        results = {name: time(lambda: ufunc(*arrays))}
        if also_out:
            results[f"{name}, out="] = time(lambda: ufunc(*arrays, out=out))
        return results
    if case == "sum":
        reducer = cuda.reduce(add)
        result = cuda.device_array(1, np.float32)
        reducer(arrays[0], res=result)
        check(case, result.copy_to_host()[0], hosts, step)
        return {name: time(lambda: reducer(arrays[0], res=result))}
    gufunc = cuda.guvectorize(["void(float32[:], float32[:])"], "(k)->()")(row_norm)
    rows = rows_of(whole[0], n, step)
    check(case, gufunc(rows).copy_to_host(), hosts, step)
    out = cuda.device_array(n // ROW, np.float32)
    results = {name: time(lambda: gufunc(rows))}
    if also_out:
        results[f"{name}, out="] = time(lambda: gufunc(rows, out))
    return results


def kaji_timings(case, n, runs):
    from kaji import cuda

    return numba_api_timings(cuda, "kaji", case, n, runs, also_out=True)


def numba_timings(case, n, runs):
    np.row_stack = getattr(np, "row_stack", np.vstack)
    from numba import cuda

    return numba_api_timings(cuda, "numba-cuda", case, n, runs, also_out=False)


def cupy_timings(case, n, runs):
    import cupy as cp

    hosts, step, whole, arrays = operands(case, n, cp.asarray)
    time = timer(runs, cp.cuda.Device().synchronize)
    if case.startswith("axpy"):
        kernel = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 out",
                                      "out = a * x + y", "fused_multiply_add")
        check(case, kernel(*arrays).get(), hosts, step)
        return {"cupy": time(lambda: kernel(*arrays))}
    if case == "sum":
        kernel = cp.ReductionKernel("float32 x", "float32 total", "x", "a + b", "total = a",
                                    "0", "total")
        check(case, kernel(arrays[0]).get(), hosts, step)
        return {"cupy": time(lambda: kernel(arrays[0]))}
    kernel = cp.ReductionKernel("float32 x", "float32 norm", "x * x", "a + b",
                                "norm = sqrt(a)", "0", "row_norm")
    rows = rows_of(whole[0], n, step)
    check(case, kernel(rows, axis=1).get(), hosts, step)
    return {"cupy": time(lambda: kernel(rows, axis=1))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--log2n", type=int, nargs="+", default=[24, 28])
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    args = parser.parse_args()
    print(f"float32 device arrays, median of {args.runs} runs of 10 calls; us per call")
    print(f"{'case':18s} {'n':>5s} {'peer':12s} {'us/call':>10s}  kaji / peer")
    for log2n in args.log2n:
        n = 1 << log2n
        for case in args.cases:
            base = None
            for timings in (kaji_timings, cupy_timings, numba_timings):
                try:
                    results = timings(case, n, args.runs)
                except ImportError as error:
                    print(f"{timings.__name__}: skipped ({error})")
                    continue
                base = base or results["kaji"]
                for name, seconds in results.items():  # as they come: a long run shows progress
                    print(f"{case:18s} 2^{log2n:<3d} {name:12s} {seconds * 1e6:10.1f}  "
                          f"{base / seconds:5.2f}x", flush=True)


if __name__ == "__main__":
    main()
