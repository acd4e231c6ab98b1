"""Numba's ``numba.cuda.compiler``: where its compile functions live (also ``cuda.compile``,
``cuda.compile_ptx``, ...)."""

from kaji.compiling import (compile, compile_all, compile_for_current_device, compile_ptx,
                            compile_ptx_for_current_device)

__all__ = ["compile", "compile_all", "compile_for_current_device", "compile_ptx",
           "compile_ptx_for_current_device"]
