"""Numba's ``numba.cuda.cudadrv.nvrtc``: the compute capabilities kaji compiles for and the
one a device of a given capability gets (kaji/_arch.py)."""

from kaji._arch import SUPPORTED_CCS, find_closest_arch

__all__ = ["SUPPORTED_CCS", "find_closest_arch", "get_arch_option", "get_lowest_supported_cc",
           "get_supported_ccs"]


def get_supported_ccs():
    """The compute capabilities kaji compiles for, oldest first."""
    return SUPPORTED_CCS


def get_lowest_supported_cc():
    return SUPPORTED_CCS[0]


def get_arch_option(major, minor):
    """NVRTC's ``compute_XY`` for a device of compute capability `major`.`minor`: the newest
    one kaji compiles for that the device runs."""
    return "compute_%d%d" % find_closest_arch((major, minor))
