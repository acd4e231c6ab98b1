"""Numba's ``numba.cuda.cudadrv``: ``devicearray`` (kaji's device arrays under Numba's names),
``driver`` (streams, errors and memory functions under Numba's names), ``devices`` (contexts
and the device list), ``error`` (Numba's exception classes as kaji's), ``linkable_code`` (device code in memory for ``link=``) and ``nvrtc``
(``find_closest_arch``)."""

from kaji.cuda.cudadrv import devicearray, devices, driver, error, linkable_code, nvrtc
