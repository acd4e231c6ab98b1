"""How kaji-compile's time and memory grow with the size of a kernel.

Generates kernels of four shapes for growing N and compiles each with build/bin/kaji-compile:

- lines:  N straight-line statements (`x = x * a[k] + k`);
- ifs:    N `if` statements one after the other;
- and:    one `if` whose condition is an `and` chain of N comparisons;
- params: N scalar parameters, each added to the result on a line of its own (up to 1 082,
          the most a kernel's 4 352 bytes of parameters hold next to the output array);
- stores: N straight-line statements `out[k] = a[k] * 2.0 + x`, each index a constant of
          its own (with bounds checks, N checks of the same two extents).

--boundscheck on|off puts boundscheck= in the kernel's decorator (the default: the
target's, off on cuda and on for cpu), which both kaji-compile and @kaji.jit apply.

Each line prints the wall time of `--emit ir` (frontend and kaji passes) and of the whole
compile for the target: `--target cuda` (default) `kaji-compile --emit ptx`, through LLVM's
NVPTX backend; `--target cpu` an eager `@kaji.jit(signature)` in a Python process with
KAJI_TARGET=cpu, through LLVM's host pipeline and the JIT's machine code (kaji-compile's cpu
output stops at LLVM IR, before the code generator). Then the peak RSS of that compile and
the ratio time(N) / time(N/2): near 2 means linear, near 4 quadratic. A shape stops growing
once one compile takes longer than --budget seconds.

    python bench/compile_scaling.py [--start 1000] [--max 128000] [--budget 20]
                                    [--shapes lines,ifs,and,params,stores]
                                    [--target cuda|cpu] [--boundscheck on|off]
                                    [--compiler PATH]
"""

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def straight_lines(n):
    body = "".join(f"    x = x * a[{k % 64}] + {k}.0\n" for k in range(n))
    return ("void(float32[:], float32[:])", "def kernel(out, a):\n    x = a[0]\n"
            f"{body}    out[0] = x\n")


def ifs(n):
    body = "".join(f"    if a[{k % 64}] > x:\n        x = x + {k}.0\n" for k in range(n))
    return ("void(float32[:], float32[:])", "def kernel(out, a):\n    x = a[0]\n"
            f"{body}    out[0] = x\n")


def and_chain(n):
    condition = " and ".join(f"a[{k % 64}] > {k}.0" for k in range(n))
    return ("void(float32[:], float32[:])", "def kernel(out, a):\n"
            f"    if {condition}:\n        out[0] = 1.0\n")


def parameters(n):
    names = [f"p{k}" for k in range(n)]
    signature = "void(float32[:], " + ", ".join(["float32"] * n) + ")"
    body = "".join(f"    x = x + {name}\n" for name in names)
    return (signature, f"def kernel(out, {', '.join(names)}):\n    x = 0.0\n{body}"
            "    out[0] = x\n")


def stores(n):
    body = "".join(f"    out[{k}] = a[{k}] * 2.0 + x\n" for k in range(n))
    return ("void(float32[:], float32[:], float32)", f"def kernel(out, a, x):\n{body}")


SHAPES = {"lines": straight_lines, "ifs": ifs, "and": and_chain, "params": parameters,
          "stores": stores}
# The largest N kaji accepts for a shape: a kernel takes at most 4 352 bytes of parameters
# (what ptxas accepts in kaji's PTX, docs/language.md), here the output array's 24 and 4 per
# float32.
MAX_N = {"params": (4352 - 24) // 4}


def compile_once(command, cpu_limit, env=None):
    """Wall seconds and peak RSS (MiB) of one compiler run, or None past the CPU limit."""
    limit = int(cpu_limit) + 1

    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr,
                                   preexec_fn=limit_cpu, env=env)
        # wait4 gives this child's own peak RSS, not the maximum over all children.
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode == -signal.SIGXCPU or process.returncode == -signal.SIGKILL:
            return None
        if process.returncode != 0:
            stderr.seek(0)
            sys.exit(f"{' '.join(command)} failed:\n{stderr.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def kaji_compile(compiler, path, emit):
    return [compiler, path, "--emit", emit, "-o", os.devnull]


# Running the generated file compiles its kernel eagerly, for the cpu target.
HOST_ENVIRONMENT = dict(os.environ, KAJI_TARGET="cpu",
                        PYTHONPATH=os.pathsep.join(filter(None, [
                            os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH")])))


def host_compile(path):
    return [sys.executable, "-c", "import runpy, sys; runpy.run_path(sys.argv[1])", path]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=1000)
    parser.add_argument("--max", type=int, default=128000)
    parser.add_argument("--budget", type=float, default=20.0,
                        help="stop growing a shape once a compile takes longer (seconds)")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--target", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--boundscheck", choices=["on", "off"],
                        help="the decorator's boundscheck= (default: the target's)")
    parser.add_argument("--compiler", default=os.path.join(ROOT, "build", "bin", "kaji-compile"))
    args = parser.parse_args()
    options = {"on": ", boundscheck=True", "off": ", boundscheck=False"}.get(args.boundscheck, "")

    stage = "ptx" if args.target == "cuda" else "host"
    print(f"{'shape':>7} {'N':>8} {'ir s':>8} {stage + ' s':>8} {'peak MiB':>9} "
          f"{'t(N)/t(N/2)':>12}")
    with tempfile.TemporaryDirectory() as scratch:
        for shape in args.shapes.split(","):
            generate = SHAPES[shape]
            previous = None
            n = args.start
            while n <= min(args.max, MAX_N.get(shape, args.max)):
                signature, source = generate(n)
                path = os.path.join(scratch, f"{shape}_{n}.py")
                with open(path, "w") as f:
                    f.write(f'import kaji\n\n@kaji.jit("{signature}"{options})\n{source}')
                timeout = 3 * args.budget
                ir = compile_once(kaji_compile(args.compiler, path, "ir"), timeout)
                if args.target == "cuda":
                    whole = compile_once(kaji_compile(args.compiler, path, "ptx"), timeout)
                else:
                    whole = compile_once(host_compile(path), timeout, HOST_ENVIRONMENT)
                if ir is None or whole is None:
                    print(f"{shape:>7} {n:>8} {'> %.0f s CPU' % timeout:>17}")
                    break
                ratio = f"{whole[0] / previous:.2f}" if previous else ""
                print(f"{shape:>7} {n:>8} {ir[0]:>8.2f} {whole[0]:>8.2f} {whole[1]:>9.0f} "
                      f"{ratio:>12}", flush=True)
                if whole[0] > args.budget:
                    break
                previous = whole[0]
                n *= 2


if __name__ == "__main__":
    main()
