"""Numba's ``numba.cuda.kernels.transpose``: ``transpose(a, b=None, stream=0)``, a device
transpose through shared-memory tiles (kaji/kernels.py).

Numba's path names a module, and kaji's ``cuda.kernels.transpose`` was the function before
this path existed, so the module is callable too: ``cuda.kernels.transpose(a)`` calls the
function."""

import sys
import types

from kaji.kernels import transpose


class _CallableModule(types.ModuleType):
    def __call__(self, a, b=None, stream=0):
        return transpose(a, b, stream)


sys.modules[__name__].__class__ = _CallableModule
