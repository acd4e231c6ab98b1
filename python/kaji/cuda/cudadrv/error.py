"""Numba's ``numba.cuda.cudadrv.error``: its exception classes as the kaji classes raised in
their place, so that ``except`` clauses written for Numba catch kaji's errors.

- ``CudaDriverError``, ``CudaRuntimeError``: ``kaji.CudaError``, a failed driver call (kaji uses
  no CUDA runtime library); in a process forked after CUDA was initialized, its message says
  "CUDA initialized before forking", as Numba's;
- ``CudaSupportError``: ``kaji.CudaUnavailable``, no usable driver or device."""

from kaji._core import CudaError as CudaDriverError
from kaji._core import CudaError as CudaRuntimeError
from kaji._core import CudaUnavailable as CudaSupportError

__all__ = ["CudaDriverError", "CudaRuntimeError", "CudaSupportError"]
