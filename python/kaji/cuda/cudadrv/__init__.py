"""Numba's ``numba.cuda.cudadrv``: ``devicearray`` (kaji's device arrays under Numba's names),
``driver`` (streams, errors and memory functions under Numba's names), ``devices`` (contexts
and the device list) and ``linkable_code`` (device code in memory for ``link=``)."""

from kaji.cuda.cudadrv import devicearray, devices, driver, linkable_code
