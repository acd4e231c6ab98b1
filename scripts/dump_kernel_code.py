"""Writes the generated code of every bench/kernels kernel into DIRECTORY, to compare two
trees byte by byte (a change meant to keep behaviour keeps the PTX): for each kernel, the PTX
of both GPU backends for sm_90 with fast math off and on (NAME.llvm.0.ptx, NAME.nvrtc.1.ptx,
...) and the NVRTC backend's CUDA C++ (NAME.cu). No GPU needed: each kernel runs its small
problem on the cpu target once, for its signature.

    PYTHONPATH=python python3 scripts/dump_kernel_code.py DIRECTORY
    diff -r BEFORE AFTER
"""

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "kernels"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    os.environ["KAJI_TARGET"] = "cpu"  # read when the benchmark modules define their kernels
    sys.path[:0] = [str(ROOT / "python"), str(BENCH)]
    sys.argv = sys.argv[:1]  # run.py parses the command line when imported
    import numpy as np

    import kaji
    import run

    rng = np.random.default_rng(0)
    names = sorted(p.stem for p in BENCH.glob("*.py") if p.stem not in ("run", "problem"))
    for name in names:
        module, kernel = run.load_benchmark(name)
        problem = module.problem(rng, full=False)
        kernel[problem.grid, problem.block](
            *[a.copy() if isinstance(a, np.ndarray) else a for a in problem.args])
        (signature,) = kernel.signatures
        source, described = kernel._source, kernel._describe_globals
        for backend in ("llvm", "nvrtc"):
            for fast_math in (False, True):
                ptx = kaji._core.compile(source, described, signature, stage="ptx",
                                         arch="sm_90", fast_math=fast_math, backend=backend)
                (out / f"{name}.{backend}.{int(fast_math)}.ptx").write_text(ptx)
        (out / f"{name}.cu").write_text(
            kaji._core.compile(source, described, signature, stage="cuda", arch="sm_90",
                               fast_math=False, backend="nvrtc"))
    print(f"{len(names)} kernels written to {out}")


if __name__ == "__main__":
    main()
