"""Numba's ``numba.cuda.kernels.reduction``: ``Reduce`` (kaji/reduction.py), the class behind
``cuda.reduce``."""

from kaji.reduction import Reduce
