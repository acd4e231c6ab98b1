"""The class a compile error is raised as: ``kaji.CompileError``, or, in a process where
Numba's compiler is loaded, a subclass of it that is Numba's ``TypingError`` too, so that code
written for Numba (``except numba.core.errors.TypingError``) catches kaji's errors unchanged.
kaji never imports Numba for this: a program that has not imported it cannot name its class."""

import sys

from kaji._core import CompileError

_bridges = {}


def compile_error_class():
    numba_errors = sys.modules.get("numba.core.errors")
    typing_error = getattr(numba_errors, "TypingError", None)
    if not (isinstance(typing_error, type) and issubclass(typing_error, Exception)):
        return CompileError
    bridge = _bridges.get(typing_error)
    if bridge is None:
        bridge = type("CompileError", (CompileError, typing_error), {
            "__module__": "kaji",
            "__doc__": CompileError.__doc__,
            # Numba's NumbaError.__init__ takes (msg, loc=None, highlighting=True); kaji's
            # message is already rendered, with its file:line:col.
            "__init__": lambda self, message: Exception.__init__(self, message),
            "__str__": Exception.__str__,
        })
        _bridges[typing_error] = bridge
    return bridge
