"""How kaji-compile's time and memory grow with the size of a kernel.

Generates kernels of four shapes for growing N and compiles each with build/bin/kaji-compile:

- lines:  N straight-line statements (`x = x * a[k] + k`);
- ifs:    N `if` statements one after the other;
- and:    one `if` whose condition is an `and` chain of N comparisons;
- params: N scalar parameters, each added to the result on a line of its own (up to 1 082,
          the most a kernel's 4 352 bytes of parameters hold next to the output array).

Each line prints the wall time of `--emit ir` (frontend and kaji passes) and `--emit ptx`
(everything, through LLVM's NVPTX backend), the peak RSS of the ptx compile, and the ratio
time(N) / time(N/2) of the ptx compile: near 2 means linear, near 4 quadratic. A shape stops
growing once one compile takes longer than --budget seconds.

    python bench/compile_scaling.py [--start 1000] [--max 128000] [--budget 20]
                                    [--shapes lines,ifs,and,params] [--compiler PATH]
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


SHAPES = {"lines": straight_lines, "ifs": ifs, "and": and_chain, "params": parameters}
# The largest N kaji accepts for a shape: a kernel takes at most 4 352 bytes of parameters
# (what ptxas accepts in kaji's PTX, docs/language.md), here the output array's 24 and 4 per
# float32.
MAX_N = {"params": (4352 - 24) // 4}


def compile_once(compiler, path, emit, cpu_limit):
    """Wall seconds and peak RSS (MiB) of one kaji-compile run, or None past the CPU limit."""
    command = [compiler, path, "--emit", emit, "-o", os.devnull]
    limit = int(cpu_limit) + 1

    def limit_cpu():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr,
                                   preexec_fn=limit_cpu)
        # wait4 gives this child's own peak RSS, not the maximum over all children.
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode == -signal.SIGXCPU or process.returncode == -signal.SIGKILL:
            return None
        if process.returncode != 0:
            stderr.seek(0)
            sys.exit(f"kaji-compile failed on {path} (--emit {emit}):\n"
                     f"{stderr.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=1000)
    parser.add_argument("--max", type=int, default=128000)
    parser.add_argument("--budget", type=float, default=20.0,
                        help="stop growing a shape once a compile takes longer (seconds)")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--compiler", default=os.path.join(ROOT, "build", "bin", "kaji-compile"))
    args = parser.parse_args()

    print(f"{'shape':>7} {'N':>8} {'ir s':>8} {'ptx s':>8} {'peak MiB':>9} {'t(N)/t(N/2)':>12}")
    with tempfile.TemporaryDirectory() as scratch:
        for shape in args.shapes.split(","):
            generate = SHAPES[shape]
            previous = None
            n = args.start
            while n <= min(args.max, MAX_N.get(shape, args.max)):
                signature, source = generate(n)
                path = os.path.join(scratch, f"{shape}_{n}.py")
                with open(path, "w") as f:
                    f.write(f'import kaji\n\n@kaji.jit("{signature}")\n{source}')
                timeout = 3 * args.budget
                ir = compile_once(args.compiler, path, "ir", timeout)
                ptx = compile_once(args.compiler, path, "ptx", timeout)
                if ir is None or ptx is None:
                    print(f"{shape:>7} {n:>8} {'> %.0f s CPU' % timeout:>17}")
                    break
                ratio = f"{ptx[0] / previous:.2f}" if previous else ""
                print(f"{shape:>7} {n:>8} {ir[0]:>8.2f} {ptx[0]:>8.2f} {ptx[1]:>9.0f} {ratio:>12}",
                      flush=True)
                if ptx[0] > args.budget:
                    break
                previous = ptx[0]
                n *= 2


if __name__ == "__main__":
    main()
