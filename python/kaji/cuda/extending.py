"""Numba's extension API at ``numba.cuda.extending``, for the part that needs no Numba type
system: ``overload`` gives a Python function implementations that kernels call, picked by
the call's argument types, and ``register_jitable`` lets kernels call a plain Python function.

    def clamp(x, low, high):                 # plain Python, for the host
        return min(max(x, low), high)

    @overload(clamp, target="cuda")
    def clamp_for_kernels(x, low, high):     # the typing function: gets kaji type objects
        if isinstance(x, types.Integer):
            return lambda x, low, high: min(max(x, low), high)
        return lambda x, low, high: math.fmin(math.fmax(x, low), high)

When a kernel calls ``clamp``, kaji calls the typing functions registered for it (those for
"cuda" first, then the "generic" ones; "cpu" ones are for Numba's CPU target, not kernels)
with the type of each argument — ``kaji.types`` objects: scalars (``types.Integer``,
``types.Float``, ``types.Complex``, ``types.Boolean``, all ``types.Number``), arrays
(``types.Array``), vectors, tuples (``types.UniTuple``, ``types.Tuple``) and ``types.none`` —
passed positionally and by keyword as the call passes them; an argument the call leaves out is
left out. The first function returned is compiled into the kernel as a device function, with
the kernel's options; None from every typing function is a compile error naming the call's
types. Each pick is remembered per argument types. The typing functions run while the kernel
compiles, so kernels calling an overloaded function compile anew in each process (the disk
cache cannot know what they would pick).

In a process that has imported Numba, the implementations Numba's own
``numba.extending.overload`` registered for "cuda" or every target ("generic") count as well,
picked the same way: their typing functions get kaji's type objects too. And, as Numba-CUDA's
``overload`` does, one registered here for every target or for the CPU is registered with
Numba as well, so that ``@njit`` functions see it (those for "cuda" stay kaji's).

Numba's type-system extensions (``typeof_impl``, ``register_model``, ``lower_builtin``,
``intrinsic``, ``overload_method``, ``overload_attribute``, ...) have no kaji counterpart:
kernels see kaji's own types only."""

import os
import sys
from types import FunctionType

from kaji import _globals
from kaji import types as kaji_types
from kaji.decorator import DeviceFunction

# Numba's targets: kernels take the implementations for CUDA, else the generic ones.
_KERNEL_TARGETS = ("cuda", "generic")
_OTHER_TARGETS = ("cpu", "npyufunc")
_INLINE = {"never": "default", "always": "always"}

# Tells apart the processes whose kernels the disk cache holds (see the docstring).
_PROCESS = os.urandom(8).hex()


class _Overloads:
    """The implementations registered for one function, and the picks made so far."""

    def __init__(self, function):
        self.function = function
        self.typing_functions = []  # (typing function, target, inlining)
        self.picks = {}

    def add(self, typing_function, target, inlining):
        self.typing_functions.append((typing_function, target, inlining))
        self.picks.clear()

    def pick(self, types, keywords):
        """The "function" entry of the implementation for these argument types (texts, see
        frontend::OverloadedFunction), or None."""
        key = (tuple(types), tuple(keywords))
        if key not in self.picks:
            self.picks[key] = self._pick(types, keywords)
        entry = self.picks[key]
        return None if entry is None else entry._kaji_describe_global_()

    def _pick(self, types, keywords):
        argument_types = [kaji_types.from_text(text) for text in types]
        positional = argument_types[:len(types) - len(keywords)]
        named = dict(zip(keywords, argument_types[len(positional):]))
        for target in _KERNEL_TARGETS:
            for typing_function, registered_for, inlining in self.typing_functions:
                if registered_for != target or not _accepts(typing_function, positional, named):
                    continue
                implementation = typing_function(*positional, **named)
                if implementation is None:
                    continue
                if not callable(implementation):
                    raise TypeError(f"the @overload typing function "
                                    f"'{typing_function.__qualname__}' returned "
                                    f"{implementation!r}, not a function")
                return DeviceFunction(implementation, inlining=inlining)
        return None

    def _kaji_describe_global_(self, pickling=False):
        name = getattr(self.function, "__qualname__", repr(self.function))
        return ("overloaded", name, self.pick, f"{name}@{id(self):x}.{_PROCESS}")


_OVERLOADED = {}  # function -> _Overloads


def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False,
             target="generic", **kwargs):
    """Registers the decorated typing function as giving `func` an implementation for
    kernels, as Numba's ``@overload(func, target=...)`` (see the module's docstring).
    `inline` is "never" (the compiler decides, as Numba's LLVM inlining does) or "always";
    `jit_options`, `strict` and `prefer_literal` are accepted for Numba's sake: the kernel's
    options apply to the implementation, and every typing function is asked with the
    arguments' types."""
    if target not in _KERNEL_TARGETS + _OTHER_TARGETS:
        raise ValueError(f"@overload target must be one of "
                         f"{', '.join(map(repr, _KERNEL_TARGETS + _OTHER_TARGETS))}, "
                         f"not {target!r}")
    if inline not in _INLINE:
        raise ValueError(f"@overload inline must be 'never' or 'always' (kaji takes no "
                         f"cost-model function), not {inline!r}")
    if kwargs:
        raise TypeError(f"overload() got unexpected keyword arguments: {', '.join(kwargs)}")

    def register(typing_function):
        if target in _KERNEL_TARGETS:
            overloads = _OVERLOADED.get(func)
            if overloads is None:
                overloads = _OVERLOADED[func] = _Overloads(func)
            overloads.add(typing_function, target, _INLINE[inline])
        # Numba-CUDA's overload serves Numba's CPU compiler too: where Numba is loaded, one for
        # every target or the CPU is registered with it as well, for @njit code.
        numba_extending = sys.modules.get("numba.core.extending")
        if numba_extending is not None and target != "cuda":
            numba_extending.overload(func, jit_options=jit_options or {}, strict=strict,
                                     inline=inline, prefer_literal=prefer_literal,
                                     target=target)(typing_function)
        return typing_function

    return register


def register_jitable(*args, **kwargs):
    """Numba's ``@register_jitable``: kernels may call the decorated Python function, compiled
    as a device function; in Python it stays the function it was. ``@register_jitable`` or
    ``@register_jitable(inline=...)``."""
    def register(func):
        overload(func, **kwargs)(lambda *args, **kwargs: func)
        return func

    if args and not kwargs and len(args) == 1 and callable(args[0]):
        return register(args[0])
    if args:
        raise TypeError("register_jitable takes the function, or keyword options only")
    return register


def _accepts(typing_function, positional, named):
    """Whether `typing_function` can be called with these arguments (as Numba, a typing
    function whose parameters do not fit the call is no match)."""
    import inspect  # on first use: `import kaji` stays light

    try:
        inspect.signature(typing_function).bind(*positional, **named)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): let the call say
        pass
    return True


def _as_overloaded(value):
    """The implementations registered for `value`, if it is an overloaded function."""
    try:
        return _OVERLOADED.get(value)
    except TypeError:  # unhashable
        return None


# Numba's own @overload (numba.extending.overload): what its registry holds for a function,
# by function, with the registry's length when read (it only grows).
_NUMBA_OVERLOADED = {}


def _numba_overloaded(value):
    """The implementations Numba's ``numba.extending.overload`` registered for `value` for
    CUDA or for every target, in a process that has imported Numba; None otherwise."""
    templates = sys.modules.get("numba.core.typing.templates")
    registry = getattr(getattr(templates, "builtin_registry", None), "globals", None)
    if registry is None or not isinstance(value, FunctionType):
        return None
    known = _NUMBA_OVERLOADED.get(value)
    if known is not None and known[0] == len(registry):
        return known[1]
    overloads = _Overloads(value)
    for key, function_type in list(registry):
        if key is not value:
            continue
        for template in getattr(function_type, "templates", ()):
            typing_function = getattr(template, "_overload_func", None)
            target = getattr(template, "metadata", {}).get("target", "generic")
            if typing_function is None or target not in _KERNEL_TARGETS:
                continue
            always = getattr(getattr(template, "_inline", None), "is_always_inline", False)
            overloads.add(typing_function, target, "always" if always else "default")
    found = overloads if overloads.typing_functions else None
    _NUMBA_OVERLOADED[value] = (len(registry), found)
    return found


_globals.FOREIGN_FUNCTIONS.extend((_as_overloaded, _numba_overloaded))
