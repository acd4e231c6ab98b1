"""Numba's ``numba.cuda.np``: only ``numpy_support`` is here."""

from kaji.cuda.np import numpy_support
