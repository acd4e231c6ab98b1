"""mandelbrot.py's kernel with its iteration limit passed as a Python int, as users write it:
the limit, and so the counter, is an int64 where the CUDA C++ kernel's is an int."""

import pathlib
import re

import numpy as np
from kaji import cuda

# mandelbrot.py's text with its kernel renamed, run under this module's `cuda` (kaji's, or
# numba's where run.py measures numba-cuda, which rewrites this file's import line): one
# kernel, two spellings of its launch. The pattern names no package, so that rewrite leaves
# it alone.
exec(re.sub(r"^from \w+ import cuda$", f"from {cuda.__name__.rpartition('.')[0]} import cuda",
            pathlib.Path(__file__).with_name("mandelbrot.py").read_text(), flags=re.M)
     .replace("def mandelbrot(", "def mandelbrot_python_int("))
_int32_limit_problem = problem  # noqa: F821 (defined by the exec)


def problem(rng, full):  # noqa: F811
    launch = _int32_limit_problem(rng, full)
    launch.args[-1] = int(launch.args[-1])
    int32_limit_args = launch.cuda_c_args  # the CUDA C++ kernel's limit stays an int
    launch.cuda_c_args = lambda *args: int32_limit_args(*args[:-1], np.int32(args[-1]))
    return launch
