"""The description of the globals a kernel names, handed to the compiler.

The compiler resolves names itself (attribute chains like ``cuda.threadIdx.x`` included); this
module only says what each global or closure variable the function's code names *is*: a module
by canonical name, a module member by qualified name, a scalar constant, or another @jit
function. Values kernels cannot use are described as such, so the compiler names them and why
when a kernel uses one (Numba's "Untyped global name").
See python/src/environment.h for the format.

kaji's own callables (kernels, device functions, ufuncs, declared CUDA C++ functions) describe
themselves, so that this module imports none of them: their class defines
``_kaji_describe_global_(self, pickling)``, which returns the entry or, when `pickling` and
the object pickles by its definition (kaji/_definition.py), the object itself.
"""

import enum
import sys
import types

from kaji import types as kaji_types
from kaji._exceptions import exception_key
from kaji.intrinsics import Intrinsic

# Modules by the canonical name the compiler knows them by.
_CANONICAL_MODULES = {
    "math": "math",
    "cmath": "cmath",
    "numpy": "numpy",
    "numba": "numba",
    "kaji": "kaji",
    "kaji.cuda": "kaji",
    "kaji.types": "kaji",
    "numba.cuda": "kaji",
    "numba.core.types": "numba",
    "operator": "operator",
}
# Modules whose members may be bound directly (`from math import sqrt`), and the canonical
# module each member belongs to. Python's builtins count too: a global `F = abs` (or a tuple
# `OPS = (square, abs)`) is the builtin the kernel would get by writing `abs`, so it is
# described as "builtins.abs", the name the compiler gives the builtins it knows.
_MEMBER_MODULES = {"math": "math", "cmath": "cmath", "numpy": "numpy", "numba.cuda": "kaji",
                   "numba": "kaji", "builtins": "builtins", "operator": "operator"}


# Functions of other compilers that kernels may call, each turned into a kaji function by an
# adapter the module defining that function registers here: `adapt(value)` gives the kaji
# object standing for `value`, or None for a value it does not know.
FOREIGN_FUNCTIONS = []


def describe_globals(func, pickling=False):
    """The description of every global and closure variable `func`'s code names; with
    `pickling`, what a pickled `func` carries instead: the @jit functions among them are left
    as they are, and a captured device array is a PicklingError."""

    # A module of the user's is described by the members the code may name: its attribute
    # names are among the code's names, as its globals are.
    names = frozenset(func.__code__.co_names)

    def describe(name, value):
        entry = describe_value(name, value, pickling, names)
        if entry is None:
            return ("unusable", _why_unusable(name, value))
        if pickling and isinstance(entry, tuple) and entry[0] == "device_array":
            import pickle

            raise pickle.PicklingError(
                f"'{func.__name__}' captures the device array '{name}', whose memory "
                "belongs to this process: pass it as an argument to pickle the function")
        return entry

    code = func.__code__
    description = {}
    namespace = func.__globals__
    for name in code.co_names:
        if name in namespace:
            entry = describe(name, namespace[name])
            if entry is not None:
                description[name] = entry
    for name, cell in zip(code.co_freevars, func.__closure__ or ()):
        try:
            value = cell.cell_contents
        except ValueError:  # a closure variable not yet assigned
            continue
        entry = describe(name, value)
        if entry is not None:
            description[name] = entry
    return description


def describe_value(name, value, pickling=False, attributes=frozenset(), modules=frozenset()):
    """The description of one value bound to `name`, or None when kernels cannot use it;
    `pickling` goes to a value that describes itself (see above). A module of the user's is a
    namespace of its members named in `attributes` (`modules`: the ones being described, which
    a member naming one of them again does not enter)."""
    # Looked up on the type, as Python looks up special methods: a class, a module loaded on
    # first use or an object answering every attribute is not asked.
    if value is None:
        return ("none", None)
    if type(value) is str:
        return ("string", value)
    describe_itself = getattr(type(value), "_kaji_describe_global_", None)
    if describe_itself is not None:
        return describe_itself(value, pickling)
    for adapt in FOREIGN_FUNCTIONS:
        adapted = adapt(value)
        if adapted is not None:
            return describe_value(name, adapted, pickling)
    if isinstance(value, Intrinsic):
        return ("builtin", value._kaji_name)
    if type(value).__name__ == "FFI" and type(value).__module__.startswith("cffi"):
        # ffi.from_buffer(array): the pointer to an array's data, as Numba's cffi support.
        return ("module", "cffi")
    if isinstance(value, kaji_types.Vector):
        return ("builtin", f"kaji.{value.name}")
    if isinstance(value, types.ModuleType):
        canonical = _CANONICAL_MODULES.get(value.__name__)
        if canonical is not None:
            return ("module", canonical)
        if id(value) in modules:
            return None
        return _describe_namespace(value, pickling, attributes, modules | {id(value)})
    if isinstance(value, enum.Enum):
        return _describe_enum_member(value)
    if isinstance(value, type) and issubclass(value, enum.Enum):
        # By every name the class has for a member, aliases included.
        members = [(key, _describe_enum_member(member)) for key, member in
                   value.__members__.items()]
        return ("enum", _qualified_name(value), issubclass(value, int),
                [(key, member) for key, member in members if member is not None])
    if isinstance(value, type) and issubclass(value, int) and not issubclass(value, bool):
        members = _int_enumeration_members(value)
        if members:
            return ("enum", _qualified_name(value), True, members)
    if isinstance(value, type) and issubclass(value, BaseException):
        return ("exception", exception_key(value))
    if _is_scalar(value):
        return ("constant", value)
    if isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields"):
        return ("namedtuple", value.__name__, list(value._fields))
    if isinstance(value, tuple):
        # A tuple is usable when each element is: a constant, a function, a tuple of them.
        elements = [describe_value(name, element) for element in value]
        if any(element is None for element in elements):
            return None
        fields = getattr(type(value), "_fields", None)
        return ("tuple", elements, type(value).__name__ if fields is not None else None,
                list(fields) if fields is not None else None)
    record = _record_dtype(value)
    if record is not None:
        # `cuda.local.array(4, dtype=rec)`: kernels know a record dtype by its layout.
        return ("record", record)
    dtype = _scalar_type_name(value)
    if dtype is not None:
        # A type object (kaji's, numba's) or numpy dtype is the numpy scalar type it means:
        # `cuda.local.array(5, float32)`, `float32(x)`.
        return ("builtin", f"numpy.{dtype}")
    if _is_device_array(value):
        # Captured by address, as Numba does: the compiled kernel reads and writes its memory.
        return ("device_array", value)
    if _is_ndarray(value):
        # Kernels read it as a constant array (named alone or through const.array_like),
        # copied into the kernel: its contents now, in C order; none past what constant
        # memory holds.
        contents = value.tobytes(order="C") if value.nbytes <= _CONSTANT_MEMORY_BYTES else None
        # ml_dtypes' bfloat16 goes by its name: its typestr "<V2" is any two opaque bytes; a
        # structured dtype by itself, its fields' layout.
        dtype = (value.dtype if value.dtype.names is not None
                 else value.dtype.name if value.dtype.kind == "V" else value.dtype.str)
        return ("array", dtype, tuple(value.shape), contents)
    qualified = _member_name(name, value)
    return None if qualified is None else ("builtin", qualified)


_CONSTANT_MEMORY_BYTES = 64 * 1024


def _describe_namespace(module, pickling, attributes, modules):
    """("namespace", name, {member: entry}): the members of `module` among `attributes`, each
    described as a global is (its name qualified by the module's), or as unusable."""
    members = {}
    namespace = vars(module)
    for attribute in sorted(attributes):
        if attribute not in namespace:
            continue
        qualified = f"{module.__name__}.{attribute}"
        value = namespace[attribute]
        entry = describe_value(qualified, value, pickling, attributes, modules)
        members[attribute] = entry if entry is not None else (
            "unusable", _why_unusable(qualified, value))
    return ("namespace", module.__name__, members)


def _why_unusable(name, value):
    """Why a kernel naming `name`, bound to `value`, cannot compile: the rest of Numba's
    "Untyped global name 'x': ..." error."""
    if isinstance(value, types.FunctionType):
        return (f"the Python function '{value.__qualname__}' is not compiled for kernels: "
                "decorate it with @cuda.jit(device=True), or give it implementations with "
                "kaji.cuda.extending.overload")
    if isinstance(value, types.ModuleType):  # reached again through its own members
        return (f"it is the module '{value.__name__}' again, which kernels reach by its own "
                "name, not through a module it contains")
    return f"kernels cannot use a value of type '{type(value).__qualname__}'"


def _scalar_type_name(value):
    """'float32' for kaji.float32, numba.float32, numpy.float32 or numpy.dtype('float32');
    None for anything else."""
    if not kaji_types.is_type_like(value):
        return None
    try:
        scalar = kaji_types.as_type(value)
    except TypeError:
        return None
    return scalar.name if isinstance(scalar, kaji_types.Scalar) else None


def _record_dtype(value):
    """The structured numpy dtype `value` is (a dtype with fields, or a kaji Record type
    object's), or None."""
    from kaji import types as kaji_types

    if isinstance(value, kaji_types.Record):
        return value.dtype
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.dtype) and value.names is not None:
        return value
    return None


def _qualified_name(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def _int_enumeration_members(cls):
    """The members of an enumeration of ints that is no enum.Enum (cuda-python's, such as
    cuda.bindings.runtime.cudaRoundMode): its public class attributes that are instances of
    it, as IntEnum members by their names."""
    members = []
    for key in dir(cls):
        member = None if key.startswith("_") else getattr(cls, key, None)
        if isinstance(member, cls):
            members.append((key, ("enum_member", _qualified_name(cls), key, int(member), True)))
    return members


def _describe_enum_member(member):
    """An Enum or IntEnum member whose value is a number; None for other values."""
    value = member.value
    if isinstance(member, int):
        value = int(member)
    if not _is_scalar(value):
        return None
    return ("enum_member", _qualified_name(type(member)), member.name, value,
            isinstance(member, int))


def _is_device_array(value):
    """A kaji DeviceArray, or any GPU array exporting ``__cuda_array_interface__``."""
    from kaji._core import DeviceArray

    return isinstance(value, DeviceArray) or (not isinstance(value, type) and
                                              hasattr(value, "__cuda_array_interface__"))


def _is_ndarray(value):
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _is_scalar(value):
    if type(value) in (bool, int, float):
        return True
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return False
    if isinstance(value, (numpy.bool_, numpy.integer, numpy.floating)):
        return True
    ml_dtypes = sys.modules.get("ml_dtypes")  # a bfloat16 value exists only once it is imported
    return ml_dtypes is not None and type(value) is ml_dtypes.bfloat16


_ABSENT = object()  # what a module lacks: no value is it


def _member_name(name, value):
    """'math.sqrt' for math.sqrt, 'numpy.float32' for numpy.float32, 'kaji.grid' for
    numba.cuda.grid: the member of a known module that `value` is, under the name the user
    bound it to or its own name."""
    candidates = [name, getattr(value, "__name__", None)]
    for module_name, canonical in _MEMBER_MODULES.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue
        for candidate in candidates:
            if isinstance(candidate, str) and module.__dict__.get(candidate, _ABSENT) is value:
                return f"{canonical}.{candidate}"
    return None
