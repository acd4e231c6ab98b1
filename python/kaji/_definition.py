"""What a kernel or device function is compiled from (its Definition), which is also all that
travels when it is pickled."""

import functools

from kaji._function_source import function_source, parameters
from kaji._globals import describe_globals, describe_value

_SHOWN_NAMES = ("__module__", "__name__", "__qualname__", "__doc__")


class Definition:
    """What a kernel or device function is compiled from: its source, parameter names and
    globals description, with the names Python shows it by. It pickles as just that (never
    compiled code), so an unpickled kernel compiles where it lands; the Python function it
    came from (``py_func``) stays behind."""

    def __init__(self, source, parameters, describe_globals, names, py_func=None):
        self.source = source
        self.parameters = parameters
        self.describe_globals = describe_globals
        self.names = names
        self.py_func = py_func

    @classmethod
    def of(cls, func):
        source = function_source(func)  # first: it says what is wrong with a non-function
        names = {name: getattr(func, name) for name in _SHOWN_NAMES}
        return cls(source, parameters(func), functools.partial(describe_globals, func), names,
                   func)

    @classmethod
    def take(cls, wrapper, func):
        """The definition of `func` (a Python function, or an unpickled Definition), kept in
        `wrapper`, the kernel or device function made from it."""
        definition = func if isinstance(func, cls) else cls.of(func)
        wrapper._definition = definition
        wrapper.py_func = definition.py_func
        wrapper._source = definition.source
        wrapper._describe_globals = definition.describe_globals
        return definition

    def show_as(self, wrapper):
        """Gives `wrapper` (the kernel or device function) this definition's names."""
        if self.py_func is not None:
            functools.update_wrapper(wrapper, self.py_func)
        else:
            for name, value in self.names.items():
                setattr(wrapper, name, value)

    def function_entry(self, device, signatures, inlining):
        """The globals description's entry (kaji/_globals.py) of the kernel (not `device`) or
        device function made from this definition, called with `signatures` and `inlining`."""
        return ("function", self.source, self.describe_globals, device, signatures, inlining)

    def __reduce__(self):
        return (Definition, (self.source, self.parameters, self._pickled_globals(), self.names))

    def _pickled_globals(self):
        if isinstance(self.describe_globals, PickledGlobals):
            return self.describe_globals
        return PickledGlobals(describe_globals(self.py_func, pickling=True))


class PickledGlobals:
    """The globals description of a pickled kernel or device function, as it was when it was
    pickled: data only (constants, array contents, module and builtin names), with each @jit
    function it names pickled (by its own Definition) in place of that function's entry.
    Globals a kernel cannot use are not in it, so they are never pickled."""

    def __init__(self, entries):
        self.entries = entries

    def __call__(self):
        # Entries are tuples; anything else is a @jit function kept in place of its own.
        return {name: entry if isinstance(entry, tuple) else describe_value(name, entry)
                for name, entry in self.entries.items()}

    def __reduce__(self):
        return (PickledGlobals, (self.entries,))
