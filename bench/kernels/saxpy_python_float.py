"""saxpy.py's out = a*x + y with `a` passed as a Python float, as users write it: the scalar
is a float64 in the kernel (as in Numba), so a * x[i] + y[i] is computed in float64 and
rounded to float32 when stored; the CUDA C++ kernel takes a double the same way."""

import numpy as np
from kaji import cuda  # noqa: F401 (the kernel is defined under it)
from respelled import define_renamed

define_renamed(globals(), "saxpy", "saxpy_python_float")
_float32_scalar_problem = problem  # noqa: F821 (defined by saxpy.py's text)


def problem(rng, full):  # noqa: F811
    launch = _float32_scalar_problem(rng, full)
    launch.args[1] = float(launch.args[1])
    float32_scalar_args = launch.cuda_c_args
    launch.cuda_c_args = lambda out, a, x, y: float32_scalar_args(out, np.float64(a), x, y)
    launch.reference = lambda out, a, x, y: [
        (a * x.astype(np.float64) + y).astype(np.float32)]
    return launch
