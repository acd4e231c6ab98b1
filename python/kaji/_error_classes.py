"""The classes kaji's errors are raised as: kaji's own, or, in a process that has imported the
library whose class code written for Numba-CUDA catches, a subclass of kaji's class that is
that library's class too, so that such code catches kaji's errors unchanged:

- a compile error (``kaji.CompileError``): Numba's ``numba.core.errors.TypingError``;
- a failed driver call (``kaji.CudaError``) and a launch configuration the driver refuses
  (``kaji.InvalidLaunch``): cuda.core's ``CUDAError``, which Numba-CUDA 0.30 raises for both.

kaji never imports those libraries for this: a program that has not imported one cannot name
its class."""

import sys

from kaji import _core

# kaji's class -> (module, class) of the other library's counterpart.
_COUNTERPARTS = {
    "CompileError": ("numba.core.errors", "TypingError"),
    "CudaError": ("cuda.core._utils.cuda_utils", "CUDAError"),
    "InvalidLaunch": ("cuda.core._utils.cuda_utils", "CUDAError"),
}

_bridges = {}


def error_class(name):
    """The class to raise for kaji's exception class `name` (a name in kaji._core)."""
    own = getattr(_core, name)
    module_name, class_name = _COUNTERPARTS[name]
    counterpart = getattr(sys.modules.get(module_name), class_name, None)
    if not (isinstance(counterpart, type) and issubclass(counterpart, Exception)):
        return own
    bridge = _bridges.get((own, counterpart))
    if bridge is None:
        bridge = type(name, (own, counterpart), {
            "__module__": "kaji",
            "__doc__": own.__doc__,
            # The counterpart's own __init__ may take other arguments (Numba's NumbaError:
            # msg, loc, highlighting); kaji's message is complete as it is.
            "__init__": lambda self, message: Exception.__init__(self, message),
            "__str__": Exception.__str__,
            # Pickled by kaji's name, which names kaji's own class: rebuilt as the class to
            # raise where it is unpickled (a process with or without the other library).
            "__reduce__": lambda self, name=name: (_rebuild, (name, self.args,
                                                              dict(vars(self)))),
        })
        _bridges[own, counterpart] = bridge
    return bridge


def _rebuild(name, args, state):
    error = error_class(name)(*args)
    vars(error).update(state)
    return error
