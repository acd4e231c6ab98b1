"""stencil.py's kernel on float64 grids: the same source, float64 loads and arithmetic (its
float32 constant 0.25 widens exactly), 256 MB moved per step."""

import numpy as np
from kaji import cuda  # noqa: F401 (the kernel is defined under it)
from respelled import define_renamed

define_renamed(globals(), "stencil", "stencil_float64")
_float32_problem = problem  # noqa: F821 (defined by stencil.py's text)


def problem(rng, full):  # noqa: F811
    launch = _float32_problem(rng, full)
    launch.args = [a.astype(np.float64) for a in launch.args]
    return launch
