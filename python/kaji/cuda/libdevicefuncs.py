"""``numba.cuda.libdevicefuncs``'s table: every function of ``cuda.libdevice`` by its libdevice
name, ``functions["__nv_frexp"] == (float64, [arg("x", float64, False), arg("out0", int32,
True)])``, with the pointer parameters through which it writes the values the Python function
returns after its result, and ``create_signature`` of the Python function. The compiler's
table (ir/include/kaji/ir/Libdevice.def) is the source; libdevice's parameter names are not
in it, so the parameters are named ``x``, ``y``, ``z``, ... and the outputs ``out0``, ...."""

from collections import namedtuple

from kaji import _core
from kaji import types as _types
from kaji.cuda.typing import signature

arg = namedtuple("arg", ("name", "ty", "is_ptr"))

_PARAMETER_NAMES = "xyzw"


def _type(name):
    return _types.void if name == "void" else getattr(_types, name)


def _arguments(parameters, outputs):
    inputs = [arg(_PARAMETER_NAMES[i] if i < len(_PARAMETER_NAMES) else f"a{i}", _type(name),
                  False) for i, name in enumerate(parameters)]
    return inputs + [arg(f"out{i}", _type(name), True) for i, name in enumerate(outputs)]


functions = {
    "__nv_" + name: (_type(result), _arguments(parameters, outputs))
    for name, (result, parameters, outputs) in _core.libdevice_functions().items()
}


def create_signature(retty, args):
    """The signature of ``cuda.libdevice``'s Python function for a libdevice function of
    result `retty` and arguments `args`: the pointer arguments' types join the result in a
    tuple (a void result left out), the others are its parameters."""
    return_types = [a.ty for a in args if a.is_ptr]
    if retty != _types.void:
        return_types.insert(0, retty)
    result = _types.Tuple(return_types) if len(return_types) > 1 else return_types[0]
    return signature(result, *(a.ty for a in args if not a.is_ptr))
