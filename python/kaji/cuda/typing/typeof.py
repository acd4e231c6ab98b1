"""Numba's ``numba.cuda.typing.typeof``: ``typeof(value)``, kaji's (kaji/types.py), the type
object a kernel is specialized on for `value`: ``array(float32, 2d, C)`` for arrays of any
kind (numpy, kaji device arrays, CuPy, PyTorch, ...), ``int64`` for a Python int,
``float32`` for a numpy float32, ``UniTuple(float64 x 2)``, a Record for a record scalar.
Its second parameter is kaji's `target` ("cpu" or "cuda"), not Numba's `purpose`."""

from kaji.types import typeof

__all__ = ["typeof"]
