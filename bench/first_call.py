"""First call of a new kernel in a fresh process: compile + load + launch.

Each sample runs a new Python process that imports the library (not timed),
defines a kernel whose source is unique to the sample (so no cache can answer),
and times its first launch up to the end of a device synchronisation. Reports the
median over RUNS processes for kaji and, when importable, numba-cuda and CuPy.
"kaji, disk cache hit" is the other case: the same kernel with @kaji.jit(cache=True)
in a file that an earlier (untimed) process already ran, so its PTX comes from disk.
Then the import of each library in a fresh process, numpy already imported (not timed).

    python bench/first_call.py [--runs 5]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

PROGRAMS = {
    "kaji": """
        import time, numpy as np, kaji
        x = kaji.to_device(np.ones(1024, np.float32))
        start = time.perf_counter()
        @kaji.jit
        def k(a):
            i = kaji.grid(1)
            if i < a.size:
                a[i] = a[i] * 2.0 + {salt}
        k[8, 128](x)
        kaji.synchronize()
        print(time.perf_counter() - start)
    """,
    "kaji, disk cache hit": """
        import time, numpy as np, kaji
        x = kaji.to_device(np.ones(1024, np.float32))
        start = time.perf_counter()
        @kaji.jit(cache=True)
        def k(a):
            i = kaji.grid(1)
            if i < a.size:
                a[i] = a[i] * 2.0 + {salt}
        k[8, 128](x)
        kaji.synchronize()
        print(time.perf_counter() - start)
    """,
    "numba-cuda": """
        import time, numpy as np
        np.row_stack = getattr(np, "row_stack", np.vstack)
        from numba import cuda
        x = cuda.to_device(np.ones(1024, np.float32))
        start = time.perf_counter()
        @cuda.jit
        def k(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = a[i] * 2.0 + {salt}
        k[8, 128](x)
        cuda.synchronize()
        print(time.perf_counter() - start)
    """,
    "cupy RawKernel": """
        import time, numpy as np, cupy as cp
        x = cp.ones(1024, cp.float32)
        cp.cuda.Device().synchronize()
        start = time.perf_counter()
        k = cp.RawKernel(r'''extern "C" __global__ void k(float* a, int n) {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) a[i] = a[i] * 2.0f + {salt}.0f;
        }}''', "k")
        k((8,), (128,), (x, np.int32(1024)))
        cp.cuda.Device().synchronize()
        print(time.perf_counter() - start)
    """,
}


IMPORTS = {
    "import kaji": "import kaji",
    "from numba import cuda": "np.row_stack = getattr(np, 'row_stack', np.vstack)\n"
                              "from numba import cuda",
    "import cupy": "import cupy",
}


def import_seconds(statement, env):
    program = ("import time, numpy as np\n"
               "start = time.perf_counter()\n"
               f"{statement}\n"
               "print(time.perf_counter() - start)\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def run_seconds(path, env):
    out = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def fresh_samples(program, runs, env, directory):
    """Each run a kernel no cache has seen: a new salt in a new file."""
    times = []
    for run in range(runs):
        path = os.path.join(directory, f"fresh_{run}.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(program).format(salt=1000 + run))
        times.append(run_seconds(path, env))
    return times


def cached_samples(program, runs, env, directory):
    """One file, run once untimed to fill the cache, then `runs` timed processes."""
    path = os.path.join(directory, "cached.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(program).format(salt=7))
    run_seconds(path, env)
    return [run_seconds(path, env) for _ in range(runs)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ)
    results = {}
    with tempfile.TemporaryDirectory() as directory:
        env["CUPY_CACHE_DIR"] = os.path.join(directory, "cupy")  # empty: CuPy really compiles
        env["KAJI_CACHE_DIR"] = os.path.join(directory, "kaji")
        for name, program in PROGRAMS.items():
            samples = cached_samples if "cache hit" in name else fresh_samples
            try:
                times = samples(program, args.runs, env, directory)
            except subprocess.CalledProcessError as error:
                print(f"{name:22s} skipped: {error.stderr.strip().splitlines()[-1]}")
                continue
            results[name] = statistics.median(times) * 1e3
        imports = {}
        for name, statement in IMPORTS.items():
            try:
                imports[name] = statistics.median(
                    import_seconds(statement, env) for _ in range(args.runs)) * 1e3
            except subprocess.CalledProcessError as error:
                print(f"{name:22s} skipped: {error.stderr.strip().splitlines()[-1]}")
    print(f"first call of a new kernel (compile + load + launch), median of {args.runs} processes")
    base = results.get("kaji")
    for name, ms in results.items():
        ratio = f"{ms / base:6.2f}x kaji" if base else ""
        print(f"{name:22s} {ms:9.1f} ms  {ratio}")
    print(f"import in a fresh process (numpy already imported), median of {args.runs} processes")
    for name, ms in imports.items():
        print(f"{name:22s} {ms:9.1f} ms")


if __name__ == "__main__":
    main()
