"""kaji against CUDA C++ (nvcc -O3) on the same kernels: results checked, device times compared.

Each benchmark is a pair in this directory: NAME.py holds the kernel in Numba's spelling
(``from kaji import cuda``, kernel NAME) and ``problem(rng, full)``, the launch shape and
arguments; NAME.cu holds the same kernel in CUDA C++ (``extern "C" __global__ void NAME``).
A problem names the kaji backends that compile its kernel (``backends``, both by default),
whether numba-cuda does (``numba``) and the dynamic shared memory both sides launch with
(``shared_bytes``); a backend that does not compile a kernel shows ``-`` in its row.

With a GPU (the default when one is usable), for each benchmark at full size:

* NAME.cu is compiled by ``nvcc -O3 -arch=sm_XY`` (XY: the device's) to a cubin, loaded and
  launched through the CUDA driver (ctypes);
* the kaji kernel, once per GPU backend (``llvm`` and ``nvrtc``: each a fresh copy of NAME.py
  defined under that KAJI_BACKEND), and numba-cuda's compilation of the same source, when numba
  is importable, are launched with the same shapes on copies of the same inputs;
* the outputs are checked against nvcc's;
* each launch is timed with CUDA events, queued behind a spinning kernel so that host launch
  costs stay out of the time; the table shows the minimum over ``--reps``;
* "1st call ms" is each backend's first launch of the fresh kernel up to a synchronisation:
  compiling it to PTX (no disk cache: the kernels are not ``cache=True``), the driver's PTX
  JIT, loading and one run. Each backend compiles a small kernel first, so loading LLVM's
  targets or NVRTC's library is not counted in the first benchmark.

``--compile-only`` needs no GPU: each benchmark kernel is compiled to PTX by each backend (as
``inspect_ptx`` does, for sm_90 without a GPU), and the table shows the milliseconds of the
fastest of ``--reps`` compiles of a fresh kernel (parsing, typing, IR, code generation; no cache
answers).

``--check`` (the default without a GPU) needs no GPU: each kaji kernel runs a small problem on
the cpu target and is checked against numpy, its PTX is assembled by
``ptxas --gpu-name sm_90``, and each .cu is compiled by nvcc; the registers each uses are shown.

``--keep DIR`` leaves both sides' code there (NAME.kaji.ll, NAME.kaji.ptx, NAME.kaji.cubin with
``--check``; NAME.kaji-llvm.ptx, NAME.kaji-nvrtc.ptx with a GPU; NAME.nvcc.ptx, NAME.nvcc.cubin)
for comparing, e.g. with ``cuobjdump -sass``. On a GPU machine
without nvcc, ``--cubins DIR`` loads the nvcc cubins that ``--check --keep DIR`` made elsewhere.

    python3 bench/kernels/run.py [--check | --compile-only] [--only saxpy,matmul] [--reps 20]
                                 [--arch sm_90] [--keep DIR] [--cubins DIR]
"""

import argparse
import ctypes
import functools
import importlib
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import types

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if importlib.util.find_spec("kaji") is None:  # an installed kaji first, else the source package
    sys.path.insert(1, str(HERE.parents[1] / "python"))

import kaji  # noqa: E402

NAMES = sorted(path.stem for path in HERE.glob("*.cu"))
BACKENDS = ("llvm", "nvrtc")
SPIN_ITERATIONS = 200_000  # about a millisecond of dependent float64 FMAs


def load_benchmark(name):
    module = importlib.import_module(name)
    return module, getattr(module, name)


def fresh_benchmark(name, label, edit=lambda source: source):
    """A new copy of NAME.py (its source passed through `edit`), so that its kernel and device
    functions are defined anew: under the KAJI_BACKEND in force, and compiled from scratch."""
    source = edit((HERE / f"{name}.py").read_text())
    module = types.ModuleType(f"{label}_{name}")
    module.__file__ = str(HERE / f"{name}.py")
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return getattr(module, name)


def backend_benchmark(name, backend):
    """NAME's kernel, its functions defined with KAJI_BACKEND=`backend`."""
    saved = os.environ.get("KAJI_BACKEND")
    os.environ["KAJI_BACKEND"] = backend
    try:
        return fresh_benchmark(name, backend)
    finally:
        if saved is None:
            del os.environ["KAJI_BACKEND"]
        else:
            os.environ["KAJI_BACKEND"] = saved


def load_numba_benchmark(name):
    """The same source with ``from numba import cuda``: numba-cuda compiles the same kernel."""
    return fresh_benchmark(name, "numba", lambda source: source.replace(
        "from kaji import cuda", "from numba import cuda"))


def warm_up_backends(target):
    """Compiles a small kernel with each backend, so that loading LLVM's targets or NVRTC's
    library is not counted as the first benchmark's compile time."""
    def scale(out):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = out[i] * 2.0

    for backend in BACKENDS:
        kaji.jit(target=target, backend=backend)(scale).inspect_ptx("void(float32[:])")


def numba_cuda():
    """numba.cuda, or None where numba-cuda is not importable."""
    try:
        if not hasattr(np, "row_stack"):  # numba reads it; numpy 2.5 removed it
            np.row_stack = np.vstack
        from numba import cuda
    except ImportError:
        return None
    return cuda if cuda.is_available() else None


def compile_cuda_c(name, arch, directory, verbose_registers=False):
    """NAME.cu -> NAME.nvcc.cubin (and NAME.nvcc.ptx) in `directory`; the cubin's path and
    the registers ptxas reports, when asked."""
    stem = pathlib.Path(directory) / f"{name}.nvcc"
    source = str(HERE / f"{name}.cu")
    run_tool(["nvcc", "-O3", f"-arch={arch}", "-ptx", "-o", f"{stem}.ptx", source])
    command = ["nvcc", "-O3", f"-arch={arch}", "-cubin", "-o", f"{stem}.cubin", source]
    if verbose_registers:
        command[1:1] = ["-Xptxas", "-v"]
    result = run_tool(command)
    return pathlib.Path(f"{stem}.cubin"), registers_used(result.stderr)


def assemble_ptx(ptx, name, arch, directory):
    """ptxas on kaji's PTX: proves it assembles; returns the registers it uses."""
    source = pathlib.Path(directory) / f"{name}.kaji.ptx"
    source.write_text(ptx)
    result = run_tool(["ptxas", "-v", f"--gpu-name={arch}", "-o",
                       str(source.with_suffix(".cubin")), str(source)])
    return registers_used(result.stderr)


def run_tool(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr}")
    return result


def registers_used(ptxas_verbose_output):
    found = re.findall(r"Used (\d+) registers", ptxas_verbose_output)
    return int(found[-1]) if found else None


def mismatch(actual, expected, problem):
    """None when `actual` matches `expected` within the problem's tolerances, else why not."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != {expected.shape}"
    close = np.isclose(actual, expected, rtol=problem.rtol, atol=problem.atol)
    wrong = close.size - np.count_nonzero(close)
    if wrong <= problem.mismatch_fraction * close.size:
        return None
    index = np.unravel_index(np.argmin(close), close.shape)
    return (f"{wrong} of {close.size} elements differ, e.g. at {index}: "
            f"{actual[index]} != {expected[index]}")


def compare_outputs(label, outputs, expected, problem):
    for position, (actual, wanted) in zip(problem.outputs, zip(outputs, expected)):
        why = mismatch(actual, wanted, problem)
        if why:
            raise AssertionError(f"{label}, output argument {position}: {why}")


# ---- --check: no GPU needed ---------------------------------------------------------------


def check(names, arch, directory):
    os.environ["KAJI_TARGET"] = "cpu"  # read when the benchmark modules define their kernels
    rng = np.random.default_rng(0)
    print(f"{'kernel':<22} {'kaji vs numpy':<14} {'kaji regs':>9} {'nvcc regs':>9}")
    for name in names:
        module, kernel = load_benchmark(name)
        problem = module.problem(rng, full=False)
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in problem.args]
        kernel[problem.config](*args)
        compare_outputs(f"{name} (kaji, {kernel.target} target)",
                        [args[i] for i in problem.outputs], problem.reference(*problem.args),
                        problem)
        (signature,) = kernel.signatures
        (pathlib.Path(directory) / f"{name}.kaji.ll").write_text(kernel.inspect_llvm(signature))
        kaji_registers = assemble_ptx(kernel.inspect_ptx(signature), name, problem.arch(arch),
                                      directory)
        _, nvcc_registers = compile_cuda_c(name, problem.arch(arch), directory,
                                           verbose_registers=True)
        print(f"{name:<22} {'ok':<14} {kaji_registers:>9} {nvcc_registers:>9}")
    print(f"{len(names)} kernels: results match numpy, PTX assembles for {arch}, .cu compiles")


# ---- --compile-only: no GPU needed --------------------------------------------------------


def compile_ms(name, backend, signature, reps):
    """The fastest of `reps` compiles to PTX of a fresh copy of NAME's kernel by `backend`."""
    times = []
    for _ in range(reps):
        kernel = backend_benchmark(name, backend)
        start = time.perf_counter()
        kernel.inspect_ptx(signature)
        times.append((time.perf_counter() - start) * 1e3)
    return min(times)


def compile_only(names, reps):
    os.environ["KAJI_TARGET"] = "cuda"  # PTX needs no GPU; nothing is launched
    warm_up_backends("cuda")
    rng = np.random.default_rng(0)
    print(f"compile to PTX, fastest of {reps} compiles of a fresh kernel, ms")
    print(f"{'kernel':<22} {'llvm ms':>9} {'nvrtc ms':>9} {'nvrtc/llvm':>10}")
    totals = dict.fromkeys(BACKENDS, 0.0)
    for name in names:
        module, kernel = load_benchmark(name)
        problem = module.problem(rng, full=False)
        if set(problem.backends) != set(BACKENDS):
            print(f"{name:<22} compiled by {', '.join(problem.backends)} only: not compared")
            continue
        signature = kernel.signature_for(tuple(problem.args))
        ms = {backend: compile_ms(name, backend, signature, reps) for backend in BACKENDS}
        for backend in BACKENDS:
            totals[backend] += ms[backend]
        print(f"{name:<22} {ms['llvm']:>9.1f} {ms['nvrtc']:>9.1f} "
              f"{ms['nvrtc'] / ms['llvm']:>10.2f}", flush=True)
    print(f"{'total':<22} {totals['llvm']:>9.1f} {totals['nvrtc']:>9.1f} "
          f"{totals['nvrtc'] / totals['llvm']:>10.2f}")


# ---- with a GPU -----------------------------------------------------------------------------


class Driver:
    """The few CUDA driver calls that load and launch a cubin, on kaji's (primary) context."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        kaji.to_device(np.zeros(1, np.uint8))  # kaji makes its context current on this thread
        context = ctypes.c_void_p()
        self.call("cuCtxGetCurrent", ctypes.byref(context))
        if not context.value:
            raise RuntimeError("no current CUDA context after kaji's first allocation")

    def call(self, function, *args):
        status = getattr(self.lib, function)(*args)
        if status != 0:
            raise RuntimeError(f"{function} failed with CUresult {status}")

    def function(self, cubin, name):
        module, function = ctypes.c_void_p(), ctypes.c_void_p()
        self.call("cuModuleLoadData", ctypes.byref(module), cubin.read_bytes())
        self.call("cuModuleGetFunction", ctypes.byref(function), module, name.encode())
        return function

    def launch(self, function, grid, block, args, stream, shared_bytes=0):
        values = [ctypes_value(arg) for arg in args]
        pointers = (ctypes.c_void_p * len(values))(
            *(ctypes.addressof(v) for v in values))
        grid, block = padded3(grid), padded3(block)
        self.call("cuLaunchKernel", function, *map(ctypes.c_uint, grid),
                  *map(ctypes.c_uint, block), ctypes.c_uint(shared_bytes),
                  ctypes.c_void_p(stream), pointers, None)

    def allow_shared_bytes(self, function, shared_bytes):
        """Lets `function` launch with more than the 48 KiB of dynamic shared memory a kernel
        gets without asking."""
        self.call("cuFuncSetAttribute", function, ctypes.c_int(MAX_DYNAMIC_SHARED_SIZE_BYTES),
                  ctypes.c_int(shared_bytes))


MAX_DYNAMIC_SHARED_SIZE_BYTES = 8  # CUfunction_attribute
CTYPES_OF = {np.float32: ctypes.c_float, np.float64: ctypes.c_double, np.int32: ctypes.c_int32,
             np.int64: ctypes.c_int64, np.uint32: ctypes.c_uint32}


def ctypes_value(arg):
    if hasattr(arg, "__cuda_array_interface__"):
        return ctypes.c_void_p(arg.__cuda_array_interface__["data"][0])
    return CTYPES_OF[type(arg)](arg)


def padded3(extent):
    return tuple(extent) + (1,) * (3 - len(extent))


@kaji.jit(target="cuda")
def spin(cell, iterations):
    value = cell[0]
    for _ in range(iterations):
        value = value * 0.999999 + 1e-6
    cell[0] = value


class Timer:
    """Device milliseconds of one launch, queued behind `spin` so that the events bracket the
    kernel alone: each of `reps` launches after a first one, or their minimum."""

    def __init__(self, reps):
        self.reps = reps
        self.cell = kaji.to_device(np.ones(1))
        self.start, self.end = kaji.event(), kaji.event()

    def all_ms(self, launch):
        launch()
        kaji.synchronize()
        times = []
        for _ in range(self.reps):
            spin[1, 1](self.cell, SPIN_ITERATIONS)
            self.start.record()
            launch()
            self.end.record()
            self.end.synchronize()
            times.append(self.start.elapsed_time(self.end))
        return times

    def min_ms(self, launch):
        return min(self.all_ms(launch))


def device_copies(problem, to_device):
    return [to_device(a) if isinstance(a, np.ndarray) else a for a in problem.args]


def outputs_of(problem, device_args):
    return [device_args[i].copy_to_host() for i in problem.outputs]


def benchmark(name, arch, directory, driver, timer, numba, cubins):
    """{label: device ms} for nvcc, each backend and numba, and {backend: first call ms}."""
    module, _ = load_benchmark(name)
    problem = module.problem(np.random.default_rng(0), full=True)
    stream = kaji.default_stream().handle
    launches = {}

    if cubins:
        cubin = pathlib.Path(cubins) / f"{name}.nvcc.cubin"
    else:
        cubin, _ = compile_cuda_c(name, problem.arch(arch), directory)
    function = driver.function(cubin, name)
    if problem.shared_bytes:
        driver.allow_shared_bytes(function, problem.shared_bytes)
    nvcc_args = device_copies(problem, kaji.to_device)
    cuda_c_args = problem.cuda_c_args(*nvcc_args)
    launches["nvcc"] = lambda: driver.launch(function, problem.grid, problem.block, cuda_c_args,
                                             stream, problem.shared_bytes)

    results = {"nvcc": nvcc_args}
    kernels = {}
    for backend in problem.backends:
        kernels[backend] = backend_benchmark(name, backend)
        results[backend] = device_copies(problem, kaji.to_device)
        configured = kernels[backend][problem.config]
        launches[backend] = functools.partial(configured, *results[backend])

    if numba is not None and problem.numba:
        numba_args = device_copies(problem, numba.to_device)
        numba_configured = load_numba_benchmark(name)[problem.config]
        launches["numba"] = lambda: numba_configured(*numba_args)
        results["numba"] = numba_args

    first_call_ms = {}
    for label, launch in launches.items():  # once, on fresh inputs, for the check
        start = time.perf_counter()
        launch()
        kaji.synchronize()
        if label in BACKENDS:
            first_call_ms[label] = (time.perf_counter() - start) * 1e3
    expected = outputs_of(problem, results["nvcc"])
    for label in (*BACKENDS, "numba"):
        if label in results:
            compare_outputs(f"{name}: {label} vs nvcc", outputs_of(problem, results[label]),
                            expected, problem)
    for backend, kernel in kernels.items():
        (signature,) = kernel.signatures
        (pathlib.Path(directory) / f"{name}.kaji-{backend}.ptx").write_text(
            kernel.inspect_ptx(signature))
    return {label: timer.min_ms(launch) for label, launch in launches.items()}, first_call_ms


def device_arch():
    major, minor = kaji.get_current_device().compute_capability
    return f"sm_{major}{minor}"


def measure(names, reps, directory, cubins):
    arch = device_arch()
    if not cubins and shutil.which("nvcc") is None:
        sys.exit("nvcc is not on PATH: compile the cubins where it is (run.py --check --keep DIR "
                 f"--arch {arch}) and pass --cubins DIR")
    driver, timer, numba = Driver(), Timer(reps), numba_cuda()
    warm_up_backends("cuda")
    print(f"device: {kaji.get_current_device().name} ({arch}); device ms: min of {reps} "
          f"launches, CUDA events; outputs checked against nvcc's; 1st call ms: compile, load "
          f"and run of a fresh kernel")
    labels = list(BACKENDS) + (["numba"] if numba is not None else [])
    if numba is None:
        print("numba-cuda not importable: no numba column")
    header = f"{'kernel':<22} {'nvcc ms':>9}" + "".join(
        f" {label + ' ms':>9} {label + '/nvcc':>10}" for label in labels) + "".join(
        f" {backend + ' 1st call ms':>17}" for backend in BACKENDS)
    print(header)
    ratios = {label: [] for label in labels}
    for name in names:
        ms, first_call_ms = benchmark(name, arch, directory, driver, timer, numba, cubins)
        line = f"{name:<22} {ms['nvcc']:>9.4f}"
        for label in labels:
            if label not in ms:  # a backend, or numba, that does not compile this kernel
                line += f" {'-':>9} {'-':>10}"
                continue
            ratios[label].append(ms[label] / ms["nvcc"])
            line += f" {ms[label]:>9.4f} {ratios[label][-1]:>10.3f}"
        line += "".join(f" {first_call_ms[backend]:>17.1f}" if backend in first_call_ms
                        else f" {'-':>17}" for backend in BACKENDS)
        print(line, flush=True)
    for label in labels:
        geomean = float(np.exp(np.mean(np.log(ratios[label]))))
        print(f"{label}/nvcc: geometric mean {geomean:.3f}, worst {max(ratios[label]):.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="no GPU needed: check results on the default target, assemble "
                             "kaji's PTX and compile the .cu files (default without a GPU)")
    parser.add_argument("--compile-only", action="store_true",
                        help="no GPU needed: compile each kernel to PTX with each backend and "
                             "show the compile times")
    parser.add_argument("--only", help="comma-separated kernel names (default: all)")
    parser.add_argument("--reps", type=int,
                        help="timed launches per kernel (default 20), or with --compile-only "
                             "compiles per kernel and backend (default 3)")
    parser.add_argument("--arch", default="sm_90", help="the architecture --check compiles for")
    parser.add_argument("--keep", metavar="DIR",
                        help="write the PTX and cubins of both sides to DIR (NAME.kaji.ptx, "
                             "NAME.nvcc.ptx, ...) to compare them, e.g. with cuobjdump -sass")
    parser.add_argument("--cubins", metavar="DIR",
                        help="with a GPU: load NAME.nvcc.cubin from DIR (made by --check --keep "
                             "DIR where nvcc is) instead of running nvcc")
    options = parser.parse_args()
    if options.check and options.compile_only:
        parser.error("--check and --compile-only are two modes: pick one")
    names = NAMES
    if options.only:
        names = options.only.split(",")
        unknown = sorted(set(names) - set(NAMES))
        if unknown:
            parser.error(f"unknown kernels {', '.join(unknown)}; known: {', '.join(NAMES)}")
    with tempfile.TemporaryDirectory() as scratch:
        directory = options.keep or scratch
        os.makedirs(directory, exist_ok=True)
        if options.compile_only:
            compile_only(names, options.reps or 3)
        elif options.check or not kaji.is_available():
            check(names, options.arch, directory)
        else:
            measure(names, options.reps or 20, directory, options.cubins)


if __name__ == "__main__":
    main()
