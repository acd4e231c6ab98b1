"""Instructions per launch on the cuda launch path, counted where there is no GPU.

Runs ``saxpy[1024, 256](out, np.float32(2), x, y)`` with kaji device arrays on the fake CUDA
driver of test/python/fake_driver (host memory, kernels not run) under valgrind's callgrind,
once with N and once with 2N launches, and prints the difference divided by N: the
instructions one launch costs inside kaji's launch slots (the configuration's mp_subscript
and the launch's tp_call: argument reading, specialization lookup, packing, the driver call)
and in the whole process (with CPython's loop and call machinery). Instruction counts do not
depend on the machine's load, which on the shared development VM moves wall times by 2x; they
are not times: a change that removes instructions may not show in bench/launch_path_cpu.py or
on the GPU (bench/launch_overhead.py). The same, in the whole process, for a call of a
vectorize ufunc on three 1024-element device arrays (allocating its output, and with out=)
and of cuda.reduce with res=. Needs valgrind and a C compiler; the extension should
be built with symbols (an unstripped _core) for the slot counts to find the slot functions.

    python bench/launch_instructions.py [--launches 1000]
"""

import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAKE_DRIVER = ROOT / "test" / "python" / "fake_driver" / "fake_libcuda.c"

PRELUDE = """
import sys, warnings
warnings.simplefilter("ignore")
import numpy as np
import kaji
from kaji import cuda

@kaji.jit(target="cuda")
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

@cuda.vectorize(["float32(float32, float32, float32)"], target="cuda")
def fused_multiply_add(a, x, y):
    return a * x + y

@cuda.reduce
def add(a, b):
    return a + b

out, x, y = (kaji.to_device(np.ones(1024, np.float32)) for _ in range(3))
a, a64 = np.float32(2), np.float64(2)
total = kaji.device_array(1, np.float32)
"""

# The call each workload repeats: a kernel launch (its scalar a numpy float32, a Python float
# or a numpy float64: the last two are float64 and compile their own specialization), and the
# GPU ufuncs' calls on device arrays
# (vectorize allocating its output or writing out=, reduce leaving its result on the device).
WORKLOADS = {
    "launch": "saxpy[1024, 256](out, a, x, y)",
    "launch, a Python float": "saxpy[1024, 256](out, 2.0, x, y)",
    "launch, a numpy float64": "saxpy[1024, 256](out, a64, x, y)",
    "vectorize": "fused_multiply_add(out, x, y)",
    "vectorize, out=": "fused_multiply_add(out, x, y, out=out)",
    "reduce": "add(x, res=total)",
}

SLOTS = ["--toggle-collect=*subscriptSlot*", "--toggle-collect=*callSlot*"]


def collected(workload, launches, environment, options):
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *options,
         sys.executable, str(workload), str(launches)],
        env=environment, capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=1000)
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not shutil.which("valgrind") or not compiler:
        sys.exit("needs valgrind and a C compiler")
    with tempfile.TemporaryDirectory() as scratch:
        driver = pathlib.Path(scratch) / "libcuda.so"
        subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(driver), str(FAKE_DRIVER)],
                       check=True)

        # One BLAS thread: numpy's idle BLAS threads spin and would count as launch work. One
        # string hash seed: the interpreter's count per launch moved by a quarter between seeds.
        environment = {**os.environ, "KAJI_TARGET": "cuda", "KAJI_CUDA_DRIVER": str(driver),
                       "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
        print(f"instructions per call (callgrind, {args.launches} vs {2 * args.launches} "
              "calls, fake driver)")
        rows = [("launch", "kaji's launch slots", SLOTS)]
        rows += [(name, f"{name}, whole process", []) for name in WORKLOADS]
        for workload_name, name, options in rows:
            workload = pathlib.Path(scratch) / "calls.py"
            workload.write_text(PRELUDE + "for _ in range(int(sys.argv[1])):\n    " +
                                WORKLOADS[workload_name] + "\n")
            once = collected(workload, args.launches, environment, options)
            twice = collected(workload, 2 * args.launches, environment, options)
            if twice == once:
                print(f"{name:40s} not counted: kaji._core has no symbols (pybind11 strips it "
                      "in Release builds; configure with -DCMAKE_BUILD_TYPE=RelWithDebInfo)")
            else:
                print(f"{name:40s} {(twice - once) / args.launches:8.0f}")


if __name__ == "__main__":
    main()
