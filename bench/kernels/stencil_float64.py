"""stencil.py's kernel on float64 grids: the same source, float64 loads and arithmetic (its
float32 constant 0.25 widens exactly), 256 MB moved per step."""

import pathlib
import re

import numpy as np
from kaji import cuda
from problem import Problem

# stencil.py's text with its kernel renamed, run under this module's `cuda` (kaji's, or
# numba's where run.py measures numba-cuda, which rewrites this file's import line).
exec(re.sub(r"^from \w+ import cuda$", f"from {cuda.__name__.rpartition('.')[0]} import cuda",
            pathlib.Path(__file__).with_name("stencil.py").read_text(), flags=re.M)
     .replace("def stencil(", "def stencil_float64("))
_float32_problem = problem  # noqa: F821 (defined by the exec)


def problem(rng, full):  # noqa: F811
    launch = _float32_problem(rng, full)
    launch.args = [a.astype(np.float64) for a in launch.args]
    return launch
