"""Numba's ``numba.cuda.cudadrv.devices``: ``gpus`` (``cuda.gpus``), ``get_context(devnum=None)``
(``cuda.current_context``) and ``require_context``, which leaves the function as it is: kaji
makes a device's context when it is first used."""

from kaji._runtime import current_context as get_context
from kaji._runtime import gpus

__all__ = ["get_context", "gpus", "require_context"]


def require_context(function):
    """`function` itself (Numba's decorator makes a context before the call; kaji's calls make
    theirs)."""
    return function
