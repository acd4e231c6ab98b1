"""Numba's ``numba.cuda.misc.special``: ``literal_unroll``, kaji's own (kaji/intrinsics.py).
In a kernel it marks a loop over a tuple of mixed types, which kaji unrolls (as it unrolls
every loop over a tuple); in Python it returns the tuple, as Numba's does. Numba's other names
here (prange, literally, gdb) have no kaji counterpart."""

from kaji.intrinsics import literal_unroll

__all__ = ["literal_unroll"]
