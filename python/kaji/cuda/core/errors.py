"""Numba's ``numba.cuda.core.errors`` for what kaji raises and warns: Numba's names for kaji's
classes, so that ``except TypingError`` and ``pytest.warns(NumbaPerformanceWarning)`` written
for Numba catch kaji's. kaji does not tell a typing error from a lowering error: each is a
``kaji.CompileError``, which ``NumbaError``, ``TypingError`` and ``LoweringError`` all name."""

from kaji import CompileError, PerformanceWarning
from kaji._jit_options import InvalidConfigWarning

NumbaError = TypingError = LoweringError = CompileError
NumbaWarning = UserWarning  # every warning kaji gives is one
NumbaPerformanceWarning = PerformanceWarning
NumbaInvalidConfigWarning = InvalidConfigWarning

__all__ = ["NumbaError", "TypingError", "LoweringError", "NumbaWarning",
           "NumbaPerformanceWarning", "NumbaInvalidConfigWarning"]
