"""Numba's ``numba.cuda.cudadrv``: ``devicearray`` (kaji's device arrays under Numba's names)
and ``linkable_code`` (device code in memory for ``link=``)."""

from kaji.cuda.cudadrv import devicearray, linkable_code
