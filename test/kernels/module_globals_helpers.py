"""A module of the user's that test_module_globals.py's kernels name: device functions,
constants and other modules kernels reach through it."""

import math
import sys

import numpy as np

from kaji import cuda

SCALE = 2.5
LIMITS = (0.0, 1.0)
TABLE = np.array([1.0, 10.0, 100.0])
maths = math  # a module reached through this one
itself = sys.modules[__name__]  # this module again, which kernels do not enter twice


@cuda.jit(device=True)
def clamp(x):
    return min(max(x, LIMITS[0]), LIMITS[1])


def plain(x):
    return x
