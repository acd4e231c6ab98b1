"""Numba's type objects: ``float32``, ``int32[:, ::1]``, ``void(float32[:], int32)``, ...

``from kaji import float32, void`` or ``from kaji.types import ...``, as with Numba. They stand
wherever a signature string does (``@jit(void(float32[:]))``, ``cuda.local.array(5, float32)``)
and print as Numba prints them (``array(float32, 2d, C)``, ``(float32, int32) -> none``).

What they print is what they are: kaji's signature parser (frontend/src/syntax/Signature.cpp) reads
that text, so the objects hold no type rules of their own, and the type objects of an
installed ``numba``, which print alike, are accepted through their text too. Records are the
exception: ``from_dtype(dtype)`` prints as Numba's ``Record(x[type=float32;offset=0];4;False)``
while the parser reads kaji IR's spelling of the record, ``record<4, align 4, x: f32 at 0>``,
which each object keeps beside its name.
"""

from kaji import _core

# numba.types' scalar names (numba.core.types), each the type kaji's signature parser gives it.
_SCALAR_NAMES = (
    "boolean", "bool_", "b1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "intp", "uintp", "intc", "uintc", "float16", "bfloat16", "float32", "float64",
    "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu",
    "byte", "char",
    "uchar", "short", "ushort", "int_", "uint", "long_", "ulong", "longlong", "ulonglong",
    "float_", "double", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8",
)
# Numba's complex types, by their names and aliases.
_COMPLEX_NAMES = {"complex64": "complex64", "complex128": "complex128", "c8": "complex64",
                  "c16": "complex128"}


class Type:
    """A type object. Two are equal, and hash alike, when they print alike."""

    __slots__ = ("name", "_spelling")

    def __init__(self, name, spelling=None):
        self.name = name
        # What kaji's signature parser reads for it: its name, but for records.
        self._spelling = name if spelling is None else spelling

    def __str__(self):
        return self.name

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Type) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __call__(self, *args):
        """``float32(float32, int32)``: the signature of a function returning this type."""
        return Signature(self, tuple(as_type(arg) for arg in args))


class _ArrayElement(Type):
    """A type arrays may have as their dtype: a scalar or a record."""

    __slots__ = ()

    def __getitem__(self, dimensions):
        """``float32[:, ::1]``: the array type with these dimensions, Numba's layouts: ``::1``
        on the last dimension is C order, on the first F order, on none any (A)."""
        spelled = []
        for dimension in dimensions if isinstance(dimensions, tuple) else (dimensions,):
            if not _is_dimension(dimension):
                raise TypeError(
                    f"{self.name}[{_index_text(dimensions)}]: an array type takes one ':' per "
                    f"dimension, '::1' marking the contiguous one (e.g. {self.name}[:, ::1]), "
                    f"not {_index_text(dimension)}")
            spelled.append(":" if dimension.step is None else "::1")
        _, ndim, layout = _parse(f"{self._spelling}[{', '.join(spelled)}]")
        return Array(self, ndim, layout)


class Scalar(_ArrayElement):
    """A scalar type: ``float32``, ``int64``, ``bool``..."""

    __slots__ = ()

    @property
    def __name__(self):
        """Its name, as a numpy scalar type's (and Numba's fp8 type classes') ``__name__``."""
        return self.name

    @property
    def bitwidth(self):
        """The bits of one value, as Numba's number types have it (float16: 16, bool: 8)."""
        if self.name in ("bool", "boolean") or self.name.startswith("float8"):
            return 8
        digits = "".join(c for c in self.name if c.isdigit())
        if not digits:
            raise AttributeError(f"'{self.name}' has no bitwidth")
        return int(digits)

    @property
    def underlying_float(self):
        """A complex type's part type, as Numba's Complex has it (complex64: float32)."""
        part = {"complex64": "float32", "complex128": "float64"}.get(self.name)
        if part is None:
            raise AttributeError(f"'{self.name}' is not complex: it has no underlying_float")
        return _SCALARS[part]

    def __call__(self, *args):
        """``float32(1.5)`` is numpy's float32 of 1.5, as with Numba; ``float32(float32)`` a
        signature."""
        if len(args) == 1 and not is_type_like(args[0]):
            return _scalar_type(self.name)(args[0])
        return super().__call__(*args)


class Number(Scalar):
    """Numba's class of number types: every Integer, Float and Complex is one, so that
    ``isinstance(t, types.Number)`` (an @overload's typing function, say) asks as with Numba."""

    __slots__ = ()


class Integer(Number):
    """The integer types, int8 to uint64."""

    __slots__ = ()

    @property
    def signed(self):
        return not self.name.startswith("uint")


class Float(Number):
    """The real floating-point types: float16, bfloat16, float32, float64."""

    __slots__ = ()


class Complex(Number):
    """complex64 and complex128."""

    __slots__ = ()


class Boolean(Scalar):
    """bool."""

    __slots__ = ()


class Float8(Scalar):
    """The 8-bit floats (ml_dtypes' names; CUDA's __nv_fp8_e4m3, __nv_fp8_e5m2, __nv_fp8_e8m0):
    kernels convert to and from them, ``float8_e4m3fn(x)`` and ``float32(y)``, and compute with
    nothing else (docs/language.md, "8-bit floats")."""

    __slots__ = ()


def _scalar_class(canonical):
    if canonical == "bool":
        return Boolean
    if canonical.startswith("float8"):
        return Float8
    if canonical.startswith("complex"):
        return Complex
    return Float if "float" in canonical else Integer


class NumberClass(Type):
    """A number type as a value (Numba's ``NumberClass``, printed ``class(float32)``): the type
    of a kernel argument that is a type itself (``kernel[1, 32](out, np.float32)``), on which
    the kernel is specialized, as ``typeof(np.float32)`` gives it."""

    __slots__ = ("instance_type",)

    def __init__(self, instance_type):
        self.instance_type = as_type(instance_type)
        if not isinstance(self.instance_type, Scalar):
            raise TypeError(f"a NumberClass is of a number type, not {self.instance_type}")
        super().__init__(f"class({self.instance_type})")


def type_value_kind(value):
    """The name of the number type `value` is, when a kernel argument passes a type
    (``np.float32``, ``np.dtype("float32")``, ``kaji.float32``, ``numba.float32``, a
    NumberClass); None for every other value."""
    if isinstance(value, NumberClass):
        return value.instance_type.name
    if not is_type_like(value):
        return None
    try:
        scalar = as_type(value)
    except TypeError:
        return None
    return scalar.name if isinstance(scalar, Scalar) else None


class Record(_ArrayElement):
    """A record type (Numba's ``Record``) of a numpy structured dtype: ``from_dtype(dtype)``.
    ``rec[:]`` is an array of it, and it is the dtype of ``cuda.local.array(n, rec)``."""

    __slots__ = ("dtype", "size", "aligned")

    def __init__(self, dtype, *numba_arguments):
        import numpy

        if numba_arguments or not isinstance(dtype, numpy.dtype) or dtype.names is None:
            raise TypeError("Record takes a structured numpy dtype (kaji.from_dtype(dtype) makes "
                            "one); Numba's Record(fields, size, aligned) is not supported")
        self.dtype = dtype
        self.size = dtype.itemsize
        self.aligned = dtype.isalignedstruct
        super().__init__(_numba_record_name(dtype), _core.record_spelling(dtype))


def _numba_record_name(dtype):
    """Numba's name of the record type of `dtype`: its fields by offset, then its size and
    whether numpy aligned it."""
    fields = sorted(((offset, name, field) for name, (field, offset, *_) in dtype.fields.items()),
                    key=lambda entry: entry[:2])
    described = ",".join(f"{name}[type={_numba_field_type(field)};offset={offset}]"
                         for offset, name, field in fields)
    return f"Record({described};{dtype.itemsize};{dtype.isalignedstruct})"


def _numba_field_type(field):
    if field.subdtype is not None:
        base, shape = field.subdtype
        return f"nestedarray({_numba_field_type(base)}, {shape})"
    return from_dtype(field).name


def from_dtype(dtype):
    """Numba's ``from_dtype``: the type object of a numpy dtype, a Record for a structured
    one; TypeError for a dtype kernels cannot take."""
    import numpy

    dtype = numpy.dtype(dtype)
    return Record(dtype) if dtype.names is not None else as_type(dtype)


def as_dtype(type_object):
    """Numba's ``as_dtype``: the numpy dtype of a scalar or record type object (kaji's or
    numba's; a numpy dtype or scalar type is taken too); NotImplementedError for a type no
    dtype stands for (arrays, vectors, none, signatures), as in Numba."""
    if isinstance(type_object, Record):
        return type_object.dtype
    if isinstance(type_object, Scalar):
        import numpy

        return numpy.dtype(_scalar_type(type_object.name))
    if not isinstance(type_object, (Type, Signature)) and is_type_like(type_object):
        try:
            return as_dtype(as_type(type_object))
        except TypeError:
            pass
    raise NotImplementedError(f"{type_object} cannot be represented as a NumPy dtype")


# CUDA C's names of the lane types (``float4`` is float32x4; ``long`` is 64-bit, as on Linux).
_C_LANE_NAMES = {
    "int8": ("char",), "int16": ("short",), "int32": ("int",), "int64": ("long", "longlong"),
    "uint8": ("uchar",), "uint16": ("ushort",), "uint32": ("uint",),
    "uint64": ("ulong", "ulonglong"), "float32": ("float",), "float64": ("double",),
}


class Vector(Type):
    """A CUDA vector type, ``float32x4``: `count` lanes of the scalar type `lane`. In a kernel it
    builds a vector (``float32x4(a, b, c, d)``); on the host, as in Numba, it builds none, but it
    stands in signatures of device functions: ``float32x4(float32x4, float32)``.

    It answers Numba's VectorType questions too (``numba.cuda.vector_types``): ``base_type``,
    ``num_elements``, ``attr_names``, ``user_facing_object`` (itself: the same object builds
    vectors in kernels) and ``aliases``, its CUDA C names (``float4``)."""

    __slots__ = ("lane", "count", "aliases")

    def __init__(self, lane, count):
        self.lane = lane
        self.count = count
        self.aliases = tuple(f"{alias}{count}" for alias in _C_LANE_NAMES[lane.name])
        super().__init__(f"{self.lane.name}x{count}")

    @property
    def base_type(self):
        return self.lane

    @property
    def num_elements(self):
        return self.count

    @property
    def attr_names(self):
        return ("x", "y", "z", "w")[:self.count]

    @property
    def user_facing_object(self):
        return self

    def __call__(self, *args):
        if all(is_type_like(arg) for arg in args):
            return super().__call__(*args)
        raise TypeError(f"{self.name}() can only be used inside a kaji kernel")


class NoneType(Type):
    """``void`` (or ``none``): what a kernel returns."""

    __slots__ = ()


class Array(Type):
    """``Array(float32, 2, "C")``, the same as ``float32[:, ::1]``; layout "C", "F" or "A"
    (any)."""

    __slots__ = ("dtype", "ndim", "layout")

    def __init__(self, dtype, ndim, layout):
        dtype = as_type(dtype)
        if not isinstance(dtype, _ArrayElement):
            raise TypeError(f"an array's dtype must be a scalar or record type, not {dtype}")
        if not isinstance(ndim, int) or isinstance(ndim, bool) or ndim < 0:
            raise TypeError(f"an array's ndim must be a non-negative int, not {ndim!r}")
        if layout not in ("C", "F", "A"):
            raise TypeError(f"an array's layout must be 'C', 'F' or 'A', not {layout!r}")
        _, self.ndim, self.layout = _parse(f"array({dtype._spelling}, {ndim}d, {layout})")
        self.dtype = dtype
        # Numba marks arrays of records numpy did not align (align=False) "unaligned".
        unaligned = "unaligned " if isinstance(dtype, Record) and not dtype.aligned else ""
        super().__init__(f"{unaligned}array({dtype.name}, {self.ndim}d, {self.layout})",
                         f"array({dtype._spelling}, {self.ndim}d, {self.layout})")


class BaseTuple(Type):
    """A tuple type is the sequence of its elements' types, as Numba's
    (``for t in Tuple((int32, float64))``, ``len(...)``, ``[0]``)."""

    __slots__ = ()

    def __iter__(self):
        return iter(self.types)

    def __len__(self):
        return len(self.types)

    def __getitem__(self, index):
        return self.types[index]


class UniTuple(BaseTuple):
    """``UniTuple(int32, 3)``: a tuple of `count` elements of one type."""

    __slots__ = ("dtype", "count")

    def __init__(self, dtype, count):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise TypeError(f"a UniTuple's count must be a non-negative int, not {count!r}")
        self.dtype = as_type(dtype)
        self.count = count
        super().__init__(f"UniTuple({self.dtype} x {count})",
                         f"UniTuple({self.dtype._spelling} x {count})")

    @property
    def types(self):
        return (self.dtype,) * self.count


class Tuple(BaseTuple):
    """``Tuple((int32, float64))``: a tuple of these types; of one type, it is a UniTuple."""

    __slots__ = ("types",)

    def __new__(cls, types):
        types = tuple(as_type(t) for t in types)
        if types and all(t == types[0] for t in types):
            return UniTuple(types[0], len(types))
        self = super().__new__(cls)
        Type.__init__(self, f"Tuple({', '.join(map(str, types))})",
                      f"Tuple({', '.join(t._spelling for t in types)})")
        self.types = types
        return self

    def __init__(self, types):
        pass  # __new__ built it, from `types` that may be an iterator used up there


class CPointer(Type):
    """``CPointer(float32)``, printed ``float32*``: Numba's C pointer to numbers. A kernel
    signature may take one: the argument is an address (a Python int, such as
    ``a.__cuda_array_interface__["data"][0]``) and the kernel indexes it as an array that has
    no end (``x[i]``, ``x[i] += 1``)."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = as_type(dtype)
        super().__init__(f"{self.dtype}*")


class Signature:
    """``void(float32[:], int32)``: argument types and a return type, printed as Numba prints
    them, ``(array(float32, 1d, A), int32) -> none``, which kaji's signature parser reads."""

    __slots__ = ("return_type", "args")

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = args

    def __str__(self):
        return f"{self.args} -> {self.return_type}"

    __repr__ = __str__

    def _spelling(self):
        """What kaji's signature parser reads: Numba's text with records as kaji spells them."""
        args = ", ".join(arg._spelling for arg in self.args) + ("," if len(self.args) == 1 else "")
        return f"({args}) -> {self.return_type._spelling}"

    def __eq__(self, other):
        return isinstance(other, Signature) and str(other) == str(self)

    def __hash__(self):
        return hash(str(self))


def _unsupported(name, why):
    def constructor(*args, **kwargs):
        raise TypeError(f"kaji.types.{name} is not supported: {why}")

    constructor.__name__ = name
    return constructor


NamedTuple = _unsupported("NamedTuple", "give kernels that take namedtuples no signature")
NamedUniTuple = _unsupported("NamedUniTuple", "give kernels that take namedtuples no signature")

none = void = NoneType("none")
# One object per type, by its canonical (numpy) name, and every name that means it.
_SCALARS = {}
_BY_NAME = {"none": none, "void": none}
for _name, _canonical in [*((n, _core.parse_type(n)[0]) for n in _SCALAR_NAMES),
                          *_COMPLEX_NAMES.items()]:
    _BY_NAME[_name] = _SCALARS.setdefault(_canonical, _scalar_class(_canonical)(_canonical))
globals().update(_BY_NAME)
del _name, _canonical
# Numba's sets of scalar types, which its users parametrize tests and signatures over.
signed_domain = frozenset(_SCALARS[n] for n in ("int8", "int16", "int32", "int64"))
unsigned_domain = frozenset(_SCALARS[n] for n in ("uint8", "uint16", "uint32", "uint64"))
integer_domain = signed_domain | unsigned_domain
real_domain = frozenset(_SCALARS[n] for n in ("float32", "float64"))
complex_domain = frozenset(_SCALARS[n] for n in ("complex64", "complex128"))
number_domain = real_domain | integer_domain | complex_domain
_DOMAINS = ("signed_domain", "unsigned_domain", "integer_domain", "real_domain",
            "complex_domain", "number_domain")
# The vector types by their Numba names, float32x4 ...; kaji.vector_types gives them CUDA C's
# names too. Like numba.types, this module does not export them.
_VECTORS = {f"{lane}x{count}": Vector(_SCALARS[lane], count)
            for lane in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                         "float32", "float64")
            for count in range(1, 5)}


def from_text(text):
    """The type object a type's text names: 'float32', 'f4', 'float32[:, ::1]',
    'array(float32, 2d, C)', 'none', 'int32*', 'UniTuple(int64 x 2)', 'Tuple(int64,
    float32[::1])', '(int64, float32)', '(int64,)'; TypeError naming the problem."""
    known = _BY_NAME.get(text.strip())
    if known is not None:
        return known
    text = text.strip()
    if text.endswith("*"):
        return CPointer(from_text(text[:-1]))
    for prefix, make in (("CPointer(", lambda inner: CPointer(from_text(inner))),
                         ("UniTuple(", _uni_tuple_from_text), ("Tuple(", _tuple_from_text),
                         ("(", _tuple_from_text)):
        if text.startswith(prefix) and text.endswith(")"):
            return make(text[len(prefix):-1])
    return _described(*_parse(text))


def _tuple_from_text(inner):
    return Tuple(map(from_text, _top_level_parts(inner)))


def _uni_tuple_from_text(inner):
    element, separator, count = inner.rpartition(" x ")
    if not separator or not count.strip().isdigit():
        raise TypeError(f"'UniTuple({inner})' is no kaji type: expected UniTuple(TYPE x COUNT)")
    return UniTuple(from_text(element), int(count))


def _top_level_parts(text):
    """`text` split at the commas outside brackets: 'a, b[:, ::1]' is ['a', 'b[:, ::1]']."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def as_type(value):
    """`value` as a kaji type object: a kaji or numba type object, a numpy scalar type
    (``np.float32``) or dtype; TypeError for anything else."""
    if isinstance(value, Type):
        return value
    if _is_numba(value):
        return from_text(str(value))
    dtype = _numpy_dtype(value)
    if dtype is not None and dtype.names is not None:
        return Record(dtype)
    if dtype is not None:
        if dtype.kind in "biufc" and dtype.isnative and dtype.name in _SCALARS:
            return _SCALARS[dtype.name]
        if _ml_dtypes_name(dtype):
            return _SCALARS[dtype.name]
        raise TypeError(f"numpy dtype {dtype} has no kaji type (supported: bool, int8-int64, "
                        "uint8-uint64, float16, bfloat16 (ml_dtypes), float32, float64, "
                        "complex64, complex128 in native byte order, and ml_dtypes' "
                        "float8_e4m3fn, float8_e5m2, float8_e8m0fnu)")
    raise TypeError(f"{value!r} is not a type (expected e.g. kaji.float32, float32[:] or "
                    "numpy.float32)")


def signature_from_text(text):
    """The Signature a signature's text names (any spelling kaji reads: 'int32(float32[:])');
    its return type is None when the text gives none ('(float32[:])'). CompileError for a
    malformed one."""
    returned, params = _core.signature_parts(text)
    return Signature(None if returned is None else from_text(returned),
                     tuple(from_text(param) for param in params))


def signature_text(signature, result_inferred=False):
    """The text kaji's signature parser reads for `signature`: a string as is; a kaji or numba
    signature object; or a tuple of argument types, for a kernel (returning void), or with
    `result_inferred` for a device function returning what it computes (`(ARGS)`)."""
    if isinstance(signature, str):
        return signature
    if isinstance(signature, tuple) and result_inferred:
        return "(" + ", ".join(as_type(arg)._spelling for arg in signature) + ")"
    if isinstance(signature, tuple):
        signature = Signature(none, tuple(as_type(arg) for arg in signature))
    if isinstance(signature, Signature):
        return signature._spelling()
    if _is_numba(signature) and type(signature).__name__ == "Signature":
        return str(signature)
    raise TypeError("a signature is a string such as 'void(float32[:], int32)', a signature "
                    "object such as void(float32[:], int32), or a tuple of argument types; "
                    f"not {signature!r}")


def is_type_object(value):
    """Whether `value` is a type object, kaji's or Numba's (``float32``, ``int32[::1]``), as
    opposed to a value or a class (``numpy.float32``)."""
    return isinstance(value, Type) or (_is_numba(value) and not isinstance(value, type) and any(
        cls.__name__ == "Type" for cls in type(value).__mro__))


def is_signature(value):
    """Whether `value` is one signature (not a list of them) that signature_text takes."""
    return (isinstance(value, (str, Signature))
            or (isinstance(value, tuple) and all(is_type_like(arg) for arg in value))
            or (_is_numba(value) and type(value).__name__ == "Signature"))


def typeof(value, target=None):
    """The type a kernel for `target` (default: the default target) is specialized on for
    `value`: ``array(float32, 2d, C)`` for a C-ordered numpy, device, CuPy or torch array,
    ``int64`` for a Python int, ``UniTuple(float64 x 2)`` for a pair of floats."""
    if isinstance(value, tuple):
        return Tuple([typeof(element, target) for element in value])
    number_type = type_value_kind(value)
    if number_type is not None:
        return NumberClass(_SCALARS[number_type])
    if target is None:
        from kaji._target import default_target

        target = default_target()
    dtype, ndim, layout = _core.typeof(value, target)
    record = _structured_dtype(value)
    if record is None:
        return _described(dtype, ndim, layout)
    # numpy's own dtype, not one rebuilt from kaji's record, keeps its align=True in the name.
    if ndim == 0 and _is_record_scalar(value):
        return Record(record)  # np.void, as Numba types it (kernels get a 0-d array of it)
    return Array(Record(record), ndim, layout)


# Array types typeof() and from_text() made, by (dtype, ndim, layout): typeof is called per
# value, and building an Array asks the parser again.
_ARRAYS = {}


def _described(dtype, ndim, layout):
    """The type object of the C++ side's (dtype, ndim, layout) description."""
    if dtype is None:
        return none
    if ndim is None:
        return _SCALARS[dtype] if dtype in _SCALARS else _VECTORS[dtype]
    key = (dtype, ndim, layout)
    array = _ARRAYS.get(key)
    if array is None:
        element = (Record(_core.record_dtype(dtype)) if dtype.startswith("record<")
                   else _SCALARS[dtype])
        array = _ARRAYS[key] = Array(element, ndim, layout)
    return array


def _structured_dtype(value):
    """The structured dtype of an array (numpy, kaji device array) or record scalar, or None."""
    dtype = getattr(value, "dtype", None)
    names = getattr(dtype, "names", None)
    return dtype if names is not None and _numpy_dtype(dtype) is not None else None


def _is_record_scalar(value):
    import numpy

    return isinstance(value, numpy.void)


def _parse(text):
    return _core.parse_type(text)


def _is_dimension(index):
    return (isinstance(index, slice) and index.start is None and index.stop is None
            and (index.step is None or (type(index.step) is int and index.step == 1)))


def _index_text(index):
    if isinstance(index, tuple):
        return ", ".join(_index_text(part) for part in index)
    if isinstance(index, slice):
        text = "" if index.start is None else repr(index.start)
        text += ":" + ("" if index.stop is None else repr(index.stop))
        return text + ("" if index.step is None else ":" + repr(index.step))
    return repr(index)


def _is_numba(value):
    return type(value).__module__.split(".")[0] in ("numba", "numba_cuda")


def _scalar_type(name):
    """numpy's scalar type of this name; bfloat16's and the 8-bit floats' are ml_dtypes',
    which numpy lacks."""
    if name in _ML_DTYPES_NAMES:
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError(f"{name} values on the host need the ml_dtypes package "
                            "(pip install ml_dtypes)") from None
        return getattr(ml_dtypes, name)
    import numpy

    return numpy.dtype(name).type


_ML_DTYPES_NAMES = ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu")


def _ml_dtypes_name(dtype):
    """The name of ml_dtypes' dtype `dtype` kaji has a type for (opaque to numpy, kind 'V',
    known by its name), or None."""
    return dtype.name if dtype.kind == "V" and dtype.name in _ML_DTYPES_NAMES else None


def _numpy_dtype(value):
    import sys

    numpy = sys.modules.get("numpy")
    if numpy is None:
        return None
    if isinstance(value, numpy.dtype):
        return value
    if isinstance(value, type) and issubclass(value, numpy.generic):
        return numpy.dtype(value)
    return None


# Classes none of whose instances is type-like (arrays, numbers, numpy scalars): typeof asks
# is_type_like of every argument, and these answer without asking numpy or numba again. Only
# a class (a value whose own type is a metaclass) can be type-like where its type's other
# instances are not.
_NOT_TYPE_LIKE = set()


def is_type_like(value):
    """Whether as_type takes `value`'s kind: a type object (kaji's, numba's), a numpy dtype or
    scalar type."""
    kind = type(value)
    if kind in _NOT_TYPE_LIKE:
        return False
    like = isinstance(value, Type) or _is_numba(value) or _numpy_dtype(value) is not None
    if not like and not isinstance(value, type):
        _NOT_TYPE_LIKE.add(kind)
    return like


__all__ = [*_SCALAR_NAMES, *_COMPLEX_NAMES, *_DOMAINS, "none", "void", "from_dtype"]
