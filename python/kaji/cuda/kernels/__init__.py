"""Numba's ``numba.cuda.kernels``: ready-made kernels, each in the module Numba has it in.
``transpose`` (kaji/kernels.py) is both the module and, called, the function:
``cuda.kernels.transpose(a)`` and ``from kaji.cuda.kernels.transpose import transpose`` are the
same transpose. ``reduction.Reduce`` is ``cuda.Reduce`` (kaji/reduction.py)."""

from kaji.cuda.kernels import reduction, transpose
