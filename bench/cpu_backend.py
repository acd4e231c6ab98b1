"""kaji's cpu target beside Numba's @njit(parallel=True) and numpy, on the benchmark kernels.

The kernels are bench/kernels' saxpy, stencil (5-point), reduction (a shared-memory tree per
block and one atomic add), matmul (16x16 shared-memory tiles between barriers), blackscholes
(float64, with a device function) and nbody (all pairs, float32), and two other spellings:
saxpy_grid_stride (saxpy as a grid-stride loop, launched with a thread per element and again
on 1024 blocks, each thread then looping over 64 elements) and warp_reduction (the reduction's
sum with a shuffle tree per warp and an atomic add per warp). Each kernel's Python
function is compiled for the cpu target with bounds checks (kaji's default there) and without,
and launched with the grid and block of its GPU launch: kernels with barriers run each block as
loops over its threads between barriers, kernels with warp operations its threads as fibers,
the others as loops over the threads (docs/cpu-backend.md).

numba runs the same arithmetic in the same precision as a CPU user writes it:
@njit(parallel=True) with prange over the outer loop; a prange reduction for the sum, the i-k-j
triple loop (contiguous inner loop) for matmul. numpy runs the whole-array expression where
there is one (``a @ b`` is BLAS's); n-body has none.

Each is called once (which compiles) and its output checked against a numpy reference, then
timed: the median of --runs calls, in ms, and its ratio to numba's time (kaji's target: its
checked time at most 1.2x numba's). The last column is that first call's time: compiling the
kernel (or numba's function) for these arguments, and one run. kaji's workers ($KAJI_CPU_THREADS) and numba's threads
($NUMBA_NUM_THREADS) both default to the CPUs this process may use. Sizes are the CPU's:
the memory-bound kernels' data is far beyond a last-level cache, the compute-bound ones take
tens to hundreds of ms on 2 cores. ``--quick`` runs small sizes, 3 calls each, as a smoke test.

With ``--simulator``, a last line times numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1, a
Python interpreter of kernels) on saxpy over 2^12 float32, in a subprocess, against numpy on
that size: seconds per call, so it is not run by default.

    PYTHONPATH=python python3 bench/cpu_backend.py [--quick] [--runs 7] [--simulator]
"""

import argparse
import dataclasses
import importlib
import math
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

import kaji

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "kernels"))
warnings.simplefilter("ignore", kaji.TargetFallbackWarning)  # the modules' own @cuda.jit
saxpy, stencil, reduction, matmul, blackscholes, nbody, saxpy_grid_stride, warp_reduction = (
    importlib.import_module(name)
    for name in ("saxpy", "stencil", "reduction", "matmul", "blackscholes", "nbody",
                 "saxpy_grid_stride", "warp_reduction"))

FULL_SIZES = {"saxpy": 1 << 24, "stencil": 4096, "reduction": 1 << 25, "matmul": 512,
              "blackscholes": 1 << 22, "nbody": 8192, "saxpy_grid_stride": 1 << 24,
              "saxpy_grid_stride, 1024 blocks": 1 << 24, "warp_reduction": 1 << 25}
QUICK_SIZES = {"saxpy": 1 << 16, "stencil": 256, "reduction": 1 << 18, "matmul": 64,
               "blackscholes": 1 << 12, "nbody": 512, "saxpy_grid_stride": 1 << 16,
               "saxpy_grid_stride, 1024 blocks": 1 << 16, "warp_reduction": 1 << 18}


@dataclass
class Case:
    name: str
    size: str
    module: object  # the bench/kernels module: its kernel has the module's name
    grid: tuple
    block: tuple
    arguments: Callable  # () -> the kernel's arguments, its outputs zeroed
    outputs: tuple  # indices into the arguments of the arrays the kernel writes
    expected: list
    numpy: Optional[Callable]  # the kernel's arguments -> the same work as numpy writes it
    rtol: float
    atol: float = 0.0
    launch: str = ""  # how the launch differs from the kernel's GPU launch, when it does


def power_of_two(n):
    return f"2^{n.bit_length() - 1}"


def blocks_of(n, threads):
    return (n + threads - 1) // threads


def saxpy_case(rng, n):
    x, y = (rng.random(n, dtype=np.float32) for _ in range(2))
    a = np.float32(2.5)
    return Case("saxpy", f"{power_of_two(n)} float32", saxpy,
                (blocks_of(n, saxpy.THREADS),), (saxpy.THREADS,),
                lambda: [np.zeros(n, np.float32), a, x, y], (0,), [a * x + y],
                lambda out, a, x, y: a * x + y, rtol=1e-5)


def numpy_stencil(out, u):
    out[1:-1, 1:-1] = stencil.QUARTER * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                         u[1:-1, 2:])


def stencil_case(rng, side):
    u = rng.random((side, side), dtype=np.float32)
    blocks = blocks_of(side, stencil.BLOCK_X), blocks_of(side, stencil.BLOCK_Y)
    return Case("stencil", f"{side}x{side} float32", stencil, blocks,
                (stencil.BLOCK_X, stencil.BLOCK_Y),
                lambda: [np.zeros((side, side), np.float32), u], (0,),
                stencil.reference(np.zeros_like(u), u), numpy_stencil, rtol=1e-5)


def reduction_case(rng, n):
    x = rng.random(n, dtype=np.float32)
    # numba's prange sum adds each thread's share in order, in float32: over 2^24 values a
    # thread (2 threads, 2^25 values) its rounding alone is 1e-4 of the sum.
    return Case("reduction", f"{power_of_two(n)} float32", reduction, (reduction.BLOCKS,),
                (reduction.THREADS,), lambda: [np.zeros(1, np.float32), x], (0,),
                [np.array([x.sum(dtype=np.float64)])], lambda out, x: x.sum(), rtol=1e-3)


def matmul_case(rng, n):
    a, b = (rng.random((n, n), dtype=np.float32) for _ in range(2))
    tiles = n // matmul.TILE
    return Case("matmul", f"{n}x{n} float32", matmul, (tiles, tiles),
                (matmul.TILE, matmul.TILE), lambda: [np.zeros((n, n), np.float32), a, b], (0,),
                [a.astype(np.float64) @ b], lambda c, a, b: a @ b, rtol=1e-4)


def blackscholes_case(rng, n):
    price = rng.uniform(5.0, 30.0, n)
    strike = rng.uniform(1.0, 100.0, n)
    years = rng.uniform(0.25, 10.0, n)
    r, v = np.float64(blackscholes.RISK_FREE), np.float64(blackscholes.VOLATILITY)
    return Case("blackscholes", f"{power_of_two(n)} float64", blackscholes,
                (blocks_of(n, blackscholes.THREADS),), (blackscholes.THREADS,),
                lambda: [np.zeros(n), np.zeros(n), price, strike, years, r, v], (0, 1),
                blackscholes.reference(None, None, price, strike, years, r, v),
                blackscholes.reference, rtol=1e-9, atol=1e-9)


def nbody_reference(pos, rows=128):
    """nbody.reference's float64 sums, a block of rows at a time: all pairs at once would take
    gigabytes at the benchmark's size."""
    p = pos.astype(np.float64)
    accel = np.empty((len(p), 3))
    for start in range(0, len(p), rows):
        d = p[None, :, :3] - p[start:start + rows, None, :3]
        inverse = 1.0 / np.sqrt((d * d).sum(axis=2) + float(nbody.SOFTENING_SQUARED))
        accel[start:start + rows] = (d * (p[None, :, 3] * inverse ** 3)[:, :, None]).sum(axis=1)
    return accel


def nbody_case(rng, n):
    pos = rng.random((n, 4), dtype=np.float32)
    return Case("nbody", f"{n} bodies float32", nbody, (blocks_of(n, nbody.THREADS),),
                (nbody.THREADS,), lambda: [np.zeros((n, 3), np.float32), pos], (0,),
                [nbody_reference(pos)], None, rtol=1e-3, atol=1e-2)


def respelled(make_case, module):
    """make_case's work, launched the same way, by `module`'s kernel (named as the module)."""
    def make(rng, n):
        return dataclasses.replace(make_case(rng, n), name=module.__name__, module=module)
    return make


def on_a_fixed_grid(make_case, blocks):
    """make_case's work on `blocks` blocks, whatever its size: a grid-stride kernel's launch as
    CUDA guides write it, each thread looping over many elements."""
    def make(rng, n):
        case = make_case(rng, n)
        return dataclasses.replace(case, grid=(blocks,), launch=f", {blocks} blocks")
    return make


CASES = {"saxpy": saxpy_case, "stencil": stencil_case, "reduction": reduction_case,
         "matmul": matmul_case, "blackscholes": blackscholes_case, "nbody": nbody_case,
         "saxpy_grid_stride": respelled(saxpy_case, saxpy_grid_stride),
         "saxpy_grid_stride, 1024 blocks":
             on_a_fixed_grid(respelled(saxpy_case, saxpy_grid_stride), 1024),
         "warp_reduction": respelled(reduction_case, warp_reduction)}


def numba_functions():
    """{kernel name: the numba @njit(parallel=True) function taking the kernel's arguments},
    or None where numba is not importable."""
    try:
        import numba
    except ImportError:
        return None
    parallel = numba.njit(parallel=True, fastmath=False)
    prange = numba.prange
    quarter, softening_squared, one = stencil.QUARTER, nbody.SOFTENING_SQUARED, nbody.ONE
    a1, a2, a3, a4, a5 = (blackscholes.A1, blackscholes.A2, blackscholes.A3, blackscholes.A4,
                          blackscholes.A5)
    rsqrt2pi = blackscholes.RSQRT2PI

    @parallel
    def saxpy_numba(out, a, x, y):
        for i in prange(x.size):
            out[i] = a * x[i] + y[i]

    @parallel
    def stencil_numba(out, u):
        for row in prange(1, u.shape[0] - 1):
            for col in range(1, u.shape[1] - 1):
                out[row, col] = quarter * (u[row - 1, col] + u[row + 1, col] +
                                           u[row, col - 1] + u[row, col + 1])

    @parallel
    def reduction_numba(out, x):
        acc = np.float32(0)
        for i in prange(x.size):
            acc += x[i]
        out[0] += acc

    @parallel
    def matmul_numba(c, a, b):
        for i in prange(a.shape[0]):
            for j in range(b.shape[1]):
                c[i, j] = np.float32(0)
            for k in range(a.shape[1]):
                aik = a[i, k]
                for j in range(b.shape[1]):
                    c[i, j] += aik * b[k, j]

    @numba.njit(fastmath=False)
    def normal_cdf(d):
        k = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
        value = rsqrt2pi * math.exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (
            a4 + k * a5)))))
        if d > 0:
            value = 1.0 - value
        return value

    @parallel
    def blackscholes_numba(call, put, price, strike, years, r, v):
        for i in prange(price.size):
            sqrt_t = math.sqrt(years[i])
            d1 = (math.log(price[i] / strike[i]) + (r + 0.5 * v * v) * years[i]) / (v * sqrt_t)
            d2 = d1 - v * sqrt_t
            cdf1 = normal_cdf(d1)
            cdf2 = normal_cdf(d2)
            discount = math.exp(-r * years[i])
            call[i] = price[i] * cdf1 - strike[i] * discount * cdf2
            put[i] = strike[i] * discount * (1.0 - cdf2) - price[i] * (1.0 - cdf1)

    @parallel
    def nbody_numba(accel, pos):
        for i in prange(pos.shape[0]):
            xi = pos[i, 0]
            yi = pos[i, 1]
            zi = pos[i, 2]
            ax = np.float32(0)
            ay = np.float32(0)
            az = np.float32(0)
            for j in range(pos.shape[0]):
                dx = pos[j, 0] - xi
                dy = pos[j, 1] - yi
                dz = pos[j, 2] - zi
                inverse = one / math.sqrt(dx * dx + dy * dy + dz * dz + softening_squared)
                strength = pos[j, 3] * inverse * inverse * inverse
                ax += dx * strength
                ay += dy * strength
                az += dz * strength
            accel[i, 0] = ax
            accel[i, 1] = ay
            accel[i, 2] = az

    return {"saxpy": saxpy_numba, "stencil": stencil_numba, "reduction": reduction_numba,
            "matmul": matmul_numba, "blackscholes": blackscholes_numba, "nbody": nbody_numba,
            "saxpy_grid_stride": saxpy_numba, "warp_reduction": reduction_numba}


def median_ms(call, runs):
    """The median of `runs` timed calls of `call`, which has run before."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3


def warm_median_ms(call, runs):
    call()
    return median_ms(call, runs)


def checked_ms(case, call, arguments, runs):
    """`call` once (it compiles), its outputs checked; then its median time over `runs` calls
    and the first call's time, or the mismatch when the outputs are wrong."""
    start = time.perf_counter()
    call(*arguments)
    first_ms = (time.perf_counter() - start) * 1e3
    for index, expected in zip(case.outputs, case.expected):
        try:
            np.testing.assert_allclose(arguments[index], expected, rtol=case.rtol,
                                       atol=case.atol)
        except AssertionError as error:
            return None, first_ms, f"output argument {index}: {str(error).strip()}"
    return median_ms(lambda: call(*arguments), runs), first_ms, None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def row(cells):
    print("| " + " | ".join(cells) + " |", flush=True)


NUMBA = "numba @njit(parallel=True)"


def bench(case, runs, njit, failures):
    """Times the case's implementations and prints their rows; returns {kaji implementation:
    its time over numba's} where both gave the right result."""
    rows = []  # (implementation, ms or None, first call ms or None, what shows without a time)
    if case.numpy is not None:
        arguments = case.arguments()
        rows.append(("numpy", warm_median_ms(lambda: case.numpy(*arguments), runs), None, None))
    function = getattr(case.module, case.name).py_func
    implementations = {
        f"kaji cpu, boundscheck={check}":
            kaji.jit(target="cpu", boundscheck=check)(function)[case.grid, case.block]
        for check in (True, False)}
    if njit is not None:
        implementations[NUMBA] = njit[case.name]
    for label, call in implementations.items():
        ms, first_ms, mismatch = checked_ms(case, call, case.arguments(), runs)
        if mismatch:
            failures.append(f"{case.name} ({case.size}), {label}: {mismatch}")
        rows.append((label, ms, first_ms, "wrong result (below)"))
    if njit is None:
        rows.append((NUMBA, None, None, "skipped: numba is not importable"))
    numba_ms = rows[-1][1]
    ratios = {}
    for label, ms, first_ms, instead in rows:
        ratio = ""
        if ms is not None and numba_ms is not None and label != NUMBA:
            ratio = f"{ms / numba_ms:.2f}"
            if label.startswith("kaji"):
                ratios[label] = ms / numba_ms
        shown = instead if ms is None else f"{ms:.2f}" if ms >= 1 else f"{ms:.4f}"
        first = "" if first_ms is None else f"{first_ms:.0f}"
        row([case.name + case.launch, case.size, label, shown, ratio, first])
    return ratios


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
    a = np.float32(2.5)
    numpy_ms = warm_median_ms(lambda: a * x + x, runs)
    simulator_ms = float(result.stdout.split()[-1]) * 1e3
    print(f"saxpy, {power_of_two(n)} float32: numba CUDA simulator (subprocess) "
          f"{simulator_ms:.1f} ms, numpy a*x+y {numpy_ms:.4f} ms "
          f"({simulator_ms / numpy_ms:.0f}x numpy's time)")


def geometric_mean(values):
    return math.exp(statistics.fmean(math.log(value) for value in values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, help="timed calls per line (default 7, --quick 3)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and 3 calls per line: a smoke test, not a measurement")
    parser.add_argument("--simulator", action="store_true",
                        help="also time numba's CUDA simulator on a small saxpy")
    parser.add_argument("--kernel", action="append", choices=list(CASES), metavar="NAME",
                        help="time only this kernel (repeatable; default: all of "
                             f"{', '.join(CASES)})")
    args = parser.parse_args()
    runs = args.runs if args.runs is not None else 3 if args.quick else 7
    if runs < 1:
        parser.error("--runs must be at least 1")
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    njit = numba_functions()
    if njit is None:
        numba_line = "numba not importable"
    else:
        import numba
        numba_line = f"numba {numba.__version__} on {numba.get_num_threads()} threads"
    print(f"{cpu_model()}, {len(os.sched_getaffinity(0))} CPUs for this process; {numba_line}; "
          f"numpy {np.__version__}. ms: median of {runs} calls after a warm-up call (which "
          f"compiles, and whose outputs are checked)")
    print()
    row(["kernel", "size", "implementation", "ms", "/ numba", "first call ms"])
    row(["---", "---", "---", "---:", "---:", "---:"])
    rng = np.random.default_rng(0)
    failures = []
    ratios = {}
    for name, make_case in CASES.items():
        if args.kernel and name not in args.kernel:
            continue
        case = make_case(rng, sizes[name])
        for label, ratio in bench(case, runs, njit, failures).items():
            ratios.setdefault(label, {})[case.name + case.launch] = ratio
    print()
    for label, by_kernel in ratios.items():
        worst = max(by_kernel, key=by_kernel.get)
        within = sum(ratio <= 1.2 for ratio in by_kernel.values())
        print(f"{label} / numba: geometric mean {geometric_mean(by_kernel.values()):.2f} over "
              f"{len(by_kernel)} kernels, worst {by_kernel[worst]:.2f} ({worst}), "
              f"{within} within 1.2")
    if args.simulator:
        bench_cuda_simulator(runs)
    sys.stdout.flush()
    for failure in failures:
        print(f"WRONG RESULT: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
