"""kaji.types: Numba's type objects, how they print, compare, build arrays and signatures, what
typeof() returns, and the errors for malformed ones. Compiling with them: test/kernels/
test_type_objects.py."""

import numpy as np
import pytest

import kaji
from kaji import cuda, types


@pytest.mark.parametrize("name, printed", [
    ("boolean", "bool"), ("bool_", "bool"), ("b1", "bool"),
    ("int8", "int8"), ("i1", "int8"), ("char", "int8"),
    ("int16", "int16"), ("i2", "int16"), ("short", "int16"),
    ("int32", "int32"), ("i4", "int32"), ("intc", "int32"),
    ("int64", "int64"), ("i8", "int64"), ("intp", "int64"), ("int_", "int64"),
    ("uint8", "uint8"), ("u1", "uint8"), ("byte", "uint8"), ("uchar", "uint8"),
    ("uint16", "uint16"), ("u2", "uint16"), ("uint32", "uint32"), ("u4", "uint32"),
    ("uint64", "uint64"), ("u8", "uint64"), ("uintp", "uint64"),
    ("float16", "float16"), ("f2", "float16"),
    ("float32", "float32"), ("f4", "float32"), ("float_", "float32"),
    ("float64", "float64"), ("f8", "float64"), ("double", "float64"),
    ("complex64", "complex64"), ("c8", "complex64"),
    ("complex128", "complex128"), ("c16", "complex128"),
    ("void", "none"), ("none", "none"),
])
def test_scalar_names_print_as_numba_prints_them(name, printed):
    scalar = getattr(types, name)
    assert str(scalar) == repr(scalar) == printed
    # the same object under every spelling and from every module
    assert getattr(kaji, name) is scalar
    assert getattr(cuda, name) is scalar


def test_aliases_are_one_object():
    assert types.f4 is types.float32
    assert types.intp is types.int64
    assert types.boolean is types.bool_ is types.b1
    assert types.void is types.none


@pytest.mark.parametrize("array, printed", [
    (types.float32[:], "array(float32, 1d, A)"),
    (types.float32[::1], "array(float32, 1d, C)"),
    (types.float32[:, ::1], "array(float32, 2d, C)"),
    (types.float32[::1, :], "array(float32, 2d, F)"),
    (types.int32[:, :, :], "array(int32, 3d, A)"),
    (types.f8[:, :, ::1], "array(float64, 3d, C)"),
    (types.boolean[:], "array(bool, 1d, A)"),
])
def test_arrays_by_slicing(array, printed):
    assert str(array) == repr(array) == printed


def test_array_attributes_and_constructor():
    array = types.float32[::1, :]
    assert (array.dtype, array.ndim, array.layout) == (types.float32, 2, "F")
    assert types.Array(types.float32, 2, "F") == array
    assert types.Array(types.int16, 3, "A") == types.int16[:, :, :]
    assert types.Array(np.float64, 1, "C") == types.float64[::1]


@pytest.mark.parametrize("index, problem", [
    ("1", "not 1"),
    ("1:", "not 1:"),
    (":3", "not :3"),
    ("::2", "not ::2"),
    (":, ::2", "not ::2"),
    (":, 0", "not 0"),
    ("'x'", "not 'x'"),
])
def test_malformed_array_types_name_the_problem(index, problem):
    with pytest.raises(TypeError, match="an array type takes one ':' per dimension") as error:
        eval(f"types.float32[{index}]", {"types": types})
    assert problem in str(error.value)


def test_contiguous_marks_only_first_or_last_dimension():
    with pytest.raises(TypeError, match=r"'::1' may mark only the last dimension"):
        types.float32[:, ::1, :]
    with pytest.raises(TypeError, match=r"'::1' may mark only the last dimension"):
        types.float32[::1, ::1]


def test_malformed_array_constructors():
    with pytest.raises(TypeError, match="layout must be 'C', 'F' or 'A', not 'K'"):
        types.Array(types.float32, 1, "K")
    with pytest.raises(TypeError, match="ndim must be a non-negative int, not -1"):
        types.Array(types.float32, -1, "C")
    with pytest.raises(TypeError, match="dtype must be a scalar or record type"):
        types.Array(types.float32[:], 1, "C")
    with pytest.raises(TypeError, match="more than 32 dimensions"):
        types.Array(types.float32, 33, "A")
    assert str(types.complex64[:]) == "array(complex64, 1d, A)"


def test_signatures_by_calling():
    sig = types.void(types.float32[:], types.int32)
    assert str(sig) == repr(sig) == "(array(float32, 1d, A), int32) -> none"
    assert sig.return_type is types.void
    assert sig.args == (types.float32[:], types.int32)
    assert str(types.float32(types.float32, types.float32)) == "(float32, float32) -> float32"
    assert str(types.void(types.int64)) == "(int64,) -> none"
    assert str(types.void()) == "() -> none"
    # numpy's scalar types and dtypes stand for the kaji types they are
    assert types.void(np.float32, np.dtype("int16")) == types.void(types.float32, types.int16)


def test_calling_a_scalar_with_a_value_converts_it_as_numpy_does():
    value = types.float32(1.5)
    assert type(value) is np.float32 and value == 1.5
    assert type(types.boolean(1)) is np.bool_


def test_tuples():
    assert str(types.UniTuple(types.int32, 3)) == "UniTuple(int32 x 3)"
    assert str(types.Tuple((types.int32, types.float64))) == "Tuple(int32, float64)"
    # a Tuple of one type is a UniTuple, as in Numba
    same = types.Tuple((types.int32, types.int32))
    assert isinstance(same, types.UniTuple) and same == types.UniTuple(types.int32, 2)
    assert str(types.Tuple(())) == "Tuple()"
    assert types.UniTuple(types.float32[:], 2).types == (types.float32[:],) * 2


def test_tuple_types_are_sequences_of_their_element_types():
    pair = types.Tuple((types.float64, types.int32))
    assert isinstance(pair, types.BaseTuple)
    assert list(pair) == [types.float64, types.int32] and len(pair) == 2
    assert pair[1] == types.int32 and pair[-1] == types.int32
    assert [t[::1] for t in types.UniTuple(types.float32, 2)] == [types.float32[::1]] * 2


def test_numba_cuda_typing_signature():
    from kaji.cuda.typing import signature

    sig = signature(types.float32, types.int32, np.float64)
    assert sig.return_type == types.float32 and sig.args == (types.int32, types.float64)
    assert str(sig) == str(types.float32(types.int32, types.float64))


def test_cpointer_prints_as_numba_and_a_kernel_signature_takes_it():
    assert str(types.CPointer(types.float32)) == "float32*"

    def kernel(p):
        pass

    compiled = kaji.jit(types.void(types.CPointer(types.float32)), target="cpu")(kernel)
    assert compiled.signatures == ["void(float32*)"]


@pytest.mark.parametrize("name", ["NamedTuple", "NamedUniTuple"])
def test_unsupported_type_constructors_say_so(name):
    with pytest.raises(TypeError, match=f"kaji.types.{name} is not supported"):
        getattr(types, name)(types.int32, 2)


def test_equality_and_hashing():
    assert types.float32[:, ::1] == types.Array(types.float32, 2, "C")
    assert types.float32[:, ::1] != types.float32[:, :]
    assert types.float32 != types.float64
    assert types.float32 != "float32"
    cache = {types.float32[:]: "a", types.void(types.int32): "b", types.int64: "c"}
    assert cache[types.float32[:]] == "a"
    assert cache[types.void(types.int32)] == "b"
    assert cache[types.intp] == "c"
    assert len({types.f4, types.float32, types.Array(types.f4, 1, "A").dtype}) == 1


def test_from_text_reads_what_types_print():
    for t in (types.float32, types.int8[:, ::1], types.uint64[::1, :], types.void,
              types.boolean[:]):
        assert types.from_text(str(t)) == t
    assert types.from_text("f4[:, ::1]") == types.float32[:, ::1]
    with pytest.raises(TypeError, match="unknown type 'flaot32'"):
        types.from_text("flaot32")
    for t in (types.UniTuple(types.int8, 3), types.Tuple((types.int64, types.float32[:, ::1])),
              types.Tuple((types.UniTuple(types.int8, 2), types.float64))):
        assert types.from_text(str(t)) == t
    with pytest.raises(TypeError, match="expected UniTuple"):
        types.from_text("UniTuple(int64 x two)")


def test_typeof_returns_type_objects():
    assert kaji.typeof(np.zeros((3, 4), np.float32), "cpu") == types.float32[:, ::1]
    assert kaji.typeof(np.zeros((3, 4), np.int8, order="F"), "cpu") == types.int8[::1, :]
    assert kaji.typeof(np.zeros(8, np.float64)[::2], "cpu") == types.float64[:]
    assert kaji.typeof(np.uint16(3), "cpu") is types.uint16
    assert kaji.typeof(3, "cpu") is types.int64
    assert kaji.typeof(2.0, "cpu") is types.float64
    assert kaji.typeof(True, "cpu") is types.boolean
    assert kaji.typeof((1, 2, 3), "cpu") == types.UniTuple(types.int64, 3)
    assert kaji.typeof((1, 2.0), "cpu") == types.Tuple((types.int64, types.float64))
    # A device array's type is the same whichever target asks (on a GPU machine it is in GPU
    # memory, which only the cuda target may be handed).
    assert str(kaji.typeof(kaji.to_device(np.zeros(4, np.float32)))) == "array(float32, 1d, C)"


def numba_like(printed, kind):
    """Stands for a type or signature object of an installed numba (class `kind` of a numba
    module): what it prints is all kaji reads of it."""
    cls = type(kind, (), {"__module__": "numba.core.types", "__str__": lambda self: printed})
    return cls()


def test_signature_text_of_each_form():
    assert types.signature_text("void(float32[:])") == "void(float32[:])"
    assert types.signature_text(types.void(types.f4[::1])) == "(array(float32, 1d, C),) -> none"
    # a tuple of argument types (numpy's too) is a kernel's signature
    assert types.signature_text((np.float32, np.dtype("i4"))) == "(float32, int32) -> none"
    with pytest.raises(TypeError, match="a signature is a string"):
        types.signature_text(3)


def test_numba_type_objects_are_read_through_their_text():
    assert types.as_type(numba_like("float32", "Float")) is types.float32
    assert types.as_type(numba_like("array(float32, 2d, F)", "Array")) == types.float32[::1, :]
    assert types.void(numba_like("array(int32, 1d, C)", "Array")) == types.void(types.int32[::1])
    signature = numba_like("(array(float32, 1d, A), int32) -> none", "Signature")
    assert types.signature_text(signature) == "(array(float32, 1d, A), int32) -> none"


def test_as_type_rejects_what_is_no_type():
    with pytest.raises(TypeError, match="is not a type"):
        types.as_type(3)
    with pytest.raises(TypeError, match="has no kaji type"):
        types.as_type(np.dtype(">f4"))


def test_a_kernel_signature_object_must_return_none():
    def kernel(a):
        pass

    with pytest.raises(kaji.CompileError, match="a kernel's signature must return void, not "
                       "'float32'"):
        kaji.jit(types.float32(types.float32), target="cpu")(kernel)


POINT = np.dtype([("x", np.float32), ("y", np.float32), ("id", np.int32)])
PARTICLE = np.dtype([("mass", np.float64), ("v", np.float32, 3), ("tag", np.int16),
                     ("home", [("ix", np.int32), ("w", np.float32)])], align=True)
POINT_PRINTED = "Record(x[type=float32;offset=0],y[type=float32;offset=4],id[type=int32;offset=8];12;False)"
PARTICLE_PRINTED = ("Record(mass[type=float64;offset=0],v[type=nestedarray(float32, (3,));offset=8],"
                    "tag[type=int16;offset=20],home[type=Record(ix[type=int32;offset=0],"
                    "w[type=float32;offset=4];8;True);offset=24];32;True)")


def test_from_dtype_gives_records_printed_as_numba_prints_them():
    point = kaji.from_dtype(POINT)
    assert isinstance(point, types.Record)
    assert str(point) == POINT_PRINTED
    assert (point.dtype, point.size, point.aligned) == (POINT, 12, False)
    assert str(types.from_dtype(PARTICLE)) == PARTICLE_PRINTED
    assert kaji.from_dtype(np.float32) is types.float32
    assert types.as_type(POINT) == point
    # Numba calls arrays of records numpy did not align "unaligned".
    assert str(point[::1]) == f"unaligned array({POINT_PRINTED}, 1d, C)"
    assert str(types.from_dtype(PARTICLE)[:, :]) == f"array({PARTICLE_PRINTED}, 2d, A)"
    assert types.Array(point, 1, "C") == point[::1]


def test_signatures_with_records_reach_the_parser_in_kaji_spelling():
    signature = types.void(kaji.from_dtype(POINT)[:], types.float64)
    assert str(signature) == f"(unaligned array({POINT_PRINTED}, 1d, A), float64) -> none"
    assert types.signature_text(signature) == (
        "(array(record<12, align 4, x: f32 at 0, y: f32 at 4, id: i32 at 8>, 1d, A), float64) "
        "-> none")


def test_typeof_of_records():
    a = np.zeros((3, 2), PARTICLE)
    assert kaji.typeof(a, "cpu") == types.from_dtype(PARTICLE)[:, ::1]
    assert kaji.typeof(np.zeros(4, POINT)[::2], "cpu") == kaji.from_dtype(POINT)[:]
    assert kaji.typeof(a[0, 1], "cpu") == types.from_dtype(PARTICLE)
    # The record as kaji spells it reads back, as a record of the same layout.
    spelled = types.from_text("record<12, align 4, x: f32 at 0, y: f32 at 4, id: i32 at 8>[::1]")
    assert spelled.dtype.dtype == POINT


def test_records_kernels_cannot_take_are_type_errors():
    with pytest.raises(TypeError, match="field name 'a b' is not a Python identifier"):
        kaji.from_dtype(np.dtype([("a b", np.int32)]))
    with pytest.raises(TypeError, match="Record takes a structured numpy dtype"):
        types.Record([("x", types.float32)], 4, False)


def test_numbas_domains_of_scalar_types():
    from kaji import types

    def names(domain):
        return sorted(str(t) for t in domain)

    assert names(types.signed_domain) == ["int16", "int32", "int64", "int8"]
    assert names(types.unsigned_domain) == ["uint16", "uint32", "uint64", "uint8"]
    assert types.integer_domain == types.signed_domain | types.unsigned_domain
    assert names(types.real_domain) == ["float32", "float64"]
    assert names(types.complex_domain) == ["complex128", "complex64"]
    assert types.number_domain == (types.integer_domain | types.real_domain
                                   | types.complex_domain)
    assert types.float32 in types.real_domain and types.int8 not in types.real_domain


def test_complex_types_name_their_part_type_as_numba():
    assert types.complex64.underlying_float is types.float32
    assert types.complex128.underlying_float is types.float64
    with pytest.raises(AttributeError, match="'float32' is not complex"):
        types.float32.underlying_float


def test_number_types_have_numbas_bitwidth():
    assert [t.bitwidth for t in (types.int8, types.uint16, types.float16, types.float32,
                                 types.int64, types.complex128)] == [8, 16, 16, 32, 64, 128]
    assert types.boolean.bitwidth == 8


def test_8_bit_float_types_are_ml_dtypes_own():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for name in ("float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu"):
        fp8 = getattr(types, name)
        assert isinstance(fp8, types.Float8) and not isinstance(fp8, types.Number)
        assert str(fp8) == name == fp8.__name__ and fp8.bitwidth == 8
        dtype = np.dtype(getattr(ml_dtypes, name))
        assert types.as_type(dtype) is fp8
        assert kaji.typeof(np.zeros(3, dtype)) == fp8[::1]
        assert fp8(1.5).dtype == dtype  # on the host, ml_dtypes' scalar
    assert types.from_text("float8_e5m2[:, ::1]") == types.float8_e5m2[:, ::1]


def test_numbas_cuda_fp8_module_path_has_kajis_types_and_numbas_modes():
    from kaji.cuda._internal import cuda_fp8

    assert cuda_fp8.fp8_e4m3 is types.float8_e4m3fn
    assert cuda_fp8.fp8_e5m2 is types.float8_e5m2 and cuda_fp8.fp8_e8m0 is types.float8_e8m0fnu
    assert (cuda_fp8.saturation_t.NOSAT, cuda_fp8.saturation_t.SATFINITE) == (0, 1)
    assert (cuda_fp8.fp8_interpretation_t.E4M3, cuda_fp8.fp8_interpretation_t.E5M2) == (0, 1)
    assert "cvt_float_to_fp8" in dir(cuda_fp8) and callable(cuda_fp8.cvt_e8m0_to_bf16raw)
    assert cuda.is_fp8_supported() and cuda.api.is_fp8_supported()
