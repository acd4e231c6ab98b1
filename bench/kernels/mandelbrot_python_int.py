"""mandelbrot.py's kernel with its iteration limit passed as a Python int, as users write it:
the limit, and so the counter, is an int64 where the CUDA C++ kernel's is an int."""

import numpy as np
from kaji import cuda  # noqa: F401 (the kernel is defined under it)
from respelled import define_renamed

define_renamed(globals(), "mandelbrot", "mandelbrot_python_int")
_int32_limit_problem = problem  # noqa: F821 (defined by mandelbrot.py's text)


def problem(rng, full):  # noqa: F811
    launch = _int32_limit_problem(rng, full)
    launch.args[-1] = int(launch.args[-1])
    int32_limit_args = launch.cuda_c_args  # the CUDA C++ kernel's limit stays an int
    launch.cuda_c_args = lambda *args: int32_limit_args(*args[:-1], np.int32(args[-1]))
    return launch
