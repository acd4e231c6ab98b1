"""Numba's ``numba.core.errors`` as ``from numba import errors`` reaches it: the same names as
``kaji.cuda.core.errors``, for kaji's classes."""

from kaji.cuda.core.errors import *  # noqa: F403
from kaji.cuda.core.errors import __all__  # noqa: F401
