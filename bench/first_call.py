"""First call of a new kernel in a fresh process: compile + load + launch.

Each sample runs a new Python process that imports the library (not timed),
defines a kernel whose source is unique to the sample (so no cache can answer),
and times its first launch up to the end of a device synchronisation. Reports the
median over RUNS processes for kaji and, when importable, numba-cuda and CuPy.

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


def sample(program, salt, env):
    code = textwrap.dedent(program).format(salt=salt)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
    try:
        out = subprocess.run(
            [sys.executable, f.name], capture_output=True, text=True, env=env, check=True
        )
        return float(out.stdout.strip().splitlines()[-1])
    finally:
        os.unlink(f.name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ)
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        env["CUPY_CACHE_DIR"] = cache  # an empty cache: CuPy really compiles
        for name, program in PROGRAMS.items():
            try:
                times = [sample(program, 1000 + run, env) for run in range(args.runs)]
            except subprocess.CalledProcessError as error:
                print(f"{name:16s} skipped: {error.stderr.strip().splitlines()[-1]}")
                continue
            results[name] = statistics.median(times) * 1e3
    print(f"first call of a new kernel (compile + load + launch), median of {args.runs} processes")
    base = results.get("kaji")
    for name, ms in results.items():
        ratio = f"{ms / base:6.2f}x kaji" if base else ""
        print(f"{name:16s} {ms:9.1f} ms  {ratio}")


if __name__ == "__main__":
    main()
