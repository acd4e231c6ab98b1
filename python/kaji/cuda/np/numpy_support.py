"""Numba's ``numba.cuda.np.numpy_support``: ``from_dtype(dtype)``, the type object of a numpy
dtype (a Record for a structured one), and ``as_dtype(type_object)``, the numpy dtype of a
scalar or record type object (NotImplementedError for arrays, vectors, none); both kaji's
(kaji/types.py), so ``as_dtype(from_dtype(d)) == d``. ``carray(ptr, shape, dtype=None)`` and
``farray``: the memory a C pointer points to as an array, in kernels and in Python
(kaji/intrinsics.py). ``numpy_version`` is numpy's version as a tuple of ints, as in Numba."""

import numpy

from kaji.intrinsics import carray, farray
from kaji.types import as_dtype, from_dtype

numpy_version = tuple(int(part) for part in numpy.__version__.split(".")[:2])

__all__ = ["as_dtype", "carray", "farray", "from_dtype", "numpy_version"]
