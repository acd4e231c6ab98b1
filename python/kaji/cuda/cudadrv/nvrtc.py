"""Numba's ``numba.cuda.cudadrv.nvrtc``: ``find_closest_arch``, the compute capability kaji
compiles for on a device of a given one (kaji/_arch.py)."""

from kaji._arch import SUPPORTED_CCS, find_closest_arch

__all__ = ["SUPPORTED_CCS", "find_closest_arch"]
