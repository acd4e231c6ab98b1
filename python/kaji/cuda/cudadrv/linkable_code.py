"""Numba's ``numba.cuda.cudadrv.linkable_code``: device code held in memory, with a name, that
``@cuda.jit(link=[...])`` and ``cuda.declare_device(..., link=...)`` take wherever they take a
file: ``CUSource`` (CUDA C++), ``PTXSource``, ``Cubin``, ``Fatbin``, ``Object``, ``Archive``,
``LTOIR``. kaji's linkers read files, so each is written to a private temporary file with its
kind's suffix when a kernel needs it (kaji/_linkable_code.py)."""

from kaji._linkable_code import (LTOIR, Archive, Cubin, CUSource, Fatbin, LinkableCode, Object,
                                 PTXSource)

__all__ = ["Archive", "CUSource", "Cubin", "Fatbin", "LTOIR", "LinkableCode", "Object",
           "PTXSource"]
