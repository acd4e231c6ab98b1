"""Exception classes kernels raise, by the key the compiler knows them by.

A kernel's ``raise E("message")`` names E in kaji IR by a key: a built-in exception class by
its name ("ValueError"), any other class by a key this module hands out when the kernel's
globals are described. When a launch reports the exception, the binding asks
``exception_class`` for the class to raise.
"""

import builtins

_classes = {}


def exception_key(cls):
    """The key of exception class `cls`, registering it."""
    if getattr(builtins, cls.__name__, None) is cls:
        return cls.__name__
    # id() tells apart classes of one name (one defined in a function, at each call).
    key = f"{cls.__module__}.{cls.__qualname__}@{id(cls):x}"
    _classes[key] = cls
    return key


def exception_class(key):
    """The class `key` names; RuntimeError when none does (a cached kernel of another
    process naming a class this one never described)."""
    cls = _classes.get(key)
    if cls is not None:
        return cls
    cls = getattr(builtins, key, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return cls
    return RuntimeError
