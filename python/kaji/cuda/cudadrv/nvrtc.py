"""Numba's ``numba.cuda.cudadrv.nvrtc``: the compute capabilities kaji compiles for and the
one a device of a given capability gets (kaji/_arch.py), and the version of the NVRTC kaji's
nvrtc backend loads."""

from kaji import _core
from kaji._arch import SUPPORTED_CCS, find_closest_arch

__all__ = ["SUPPORTED_CCS", "find_closest_arch", "get_arch_option", "get_lowest_supported_cc",
           "get_supported_ccs"]


def _get_nvrtc_version():
    """(major, minor) of the NVRTC the nvrtc backend loads (a RuntimeError naming where it
    looked when there is none), as Numba's."""
    major, minor, _ = _core.nvrtc_version()
    return major, minor


def get_supported_ccs():
    """The compute capabilities kaji compiles for, oldest first."""
    return SUPPORTED_CCS


def get_lowest_supported_cc():
    return SUPPORTED_CCS[0]


def get_arch_option(major, minor, arch=""):
    """NVRTC's ``compute_XY`` for a device of compute capability `major`.`minor`: the newest
    one kaji compiles for that the device runs; with `arch` ("a" or "f"), its
    architecture-specific variant (``compute_90a``), which only that very capability has:
    ValueError when kaji would compile for another."""
    closest = find_closest_arch((major, minor))
    if arch and closest != (major, minor):
        raise ValueError(f"Can't use arch-specific compute_{major}{minor}{arch} with "
                         f"compute capability {closest[0]}.{closest[1]}, the newest kaji "
                         f"compiles for that a {major}.{minor} device runs")
    return "compute_%d%d%s" % (*closest, arch)
