"""Type objects (kaji.types, Numba's spelling) where kernels take types: eager signatures, the
dtypes of local and shared arrays, conversions; numpy dtypes and numba's objects alike."""

import numpy as np
import pytest

import kaji
from kaji import cuda, float32, float64, int8, int16, int32, int64, types, uint8, void

DTYPE = np.dtype(np.uint8)


def scale(out, x, factor):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor


def test_eager_signature_of_type_objects(jit):
    kernel = jit(void(float32[::1], float32[::1], float32))(scale)
    assert kernel.signatures == ["void(float32[::1], float32[::1], float32)"]
    x = np.arange(10, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1, 32](out, x, 2.5)
    np.testing.assert_array_equal(out, x * np.float32(2.5))


def test_a_list_of_signature_objects(jit):
    kernel = jit([void(float32[::1], float32[::1], float32),
                  void(float64[:], float64[:], float64)])(scale)
    assert kernel.signatures == ["void(float32[::1], float32[::1], float32)",
                                 "void(float64[:], float64[:], float64)"]
    x = np.linspace(0, 1, 9)
    out = np.zeros_like(x)
    kernel[1, 32](out, x, 3.0)
    np.testing.assert_array_equal(out, x * 3.0)


def test_a_tuple_of_argument_types_is_a_kernel_signature(jit):
    kernel = jit((int32[:], int32[:], int32))(scale)
    assert kernel.signatures == ["void(int32[:], int32[:], int32)"]
    x = np.arange(5, dtype=np.int32)
    out = np.zeros_like(x)
    kernel[1, 8](out, x, np.int32(-3))
    np.testing.assert_array_equal(out, x * -3)


def test_signature_printed_by_numba(jit):
    numba_signature = type("Signature", (), {
        "__module__": "numba.core.typing.templates",
        "__str__": lambda self: "(array(int16, 1d, C), array(int16, 1d, A), int16) -> none"})()
    kernel = jit(numba_signature)(scale)
    assert kernel.signatures == ["void(int16[::1], int16[:], int16)"]


def typed_storage(out, big):
    t = cuda.threadIdx.x
    scratch = cuda.local.array(2, dtype=float32)
    counts = cuda.shared.array(32, int16)
    small = cuda.local.array(1, DTYPE)
    scratch[0] = 1.0 / 3.0
    counts[t] = big
    small[0] = big
    cuda.syncthreads()
    out[0, t] = scratch[0]
    out[1, t] = counts[31 - t]
    out[2, t] = small[0]
    out[3, t] = float32(1.0 / 3.0)
    out[4, t] = uint8(big)


def test_local_and_shared_array_dtypes_and_conversions(jit):
    out = np.zeros((5, 32), dtype=np.float64)
    big = 40_000  # what int16 and uint8 storage wrap
    jit(typed_storage)[1, 32](out, big)
    third = np.float64(np.float32(1.0 / 3.0))
    np.testing.assert_array_equal(out[0], third)
    np.testing.assert_array_equal(out[1], big - 65536)
    np.testing.assert_array_equal(out[2], big % 256)
    np.testing.assert_array_equal(out[3], third)
    np.testing.assert_array_equal(out[4], big % 256)


def dtype_names(out, big):
    i = cuda.threadIdx.x
    small = cuda.local.array(2, dtype="int16")
    tile = cuda.shared.array(32, "uint8")
    small[0] = big
    tile[i] = big
    cuda.syncthreads()
    out[0, i] = small[0]
    out[1, i] = tile[31 - i]


def test_a_dtype_may_be_its_name(jit):
    out = np.zeros((2, 32), dtype=np.float64)
    jit(dtype_names)[1, 32](out, 40_000)
    np.testing.assert_array_equal(out[0], 40_000 - 65536)
    np.testing.assert_array_equal(out[1], 40_000 % 256)


@pytest.mark.parametrize("allocate", ["cuda.local.array(2, dtype='int33')",
                                      "cuda.shared.array(2, 'float31')"])
def test_a_dtype_name_numpy_lacks_is_a_compile_error(jit, allocate):
    namespace = {"cuda": cuda}
    exec(f"def kernel(x):\n    s = {allocate}\n    x[0] = s[0]\n", namespace)
    with pytest.raises(kaji.CompileError, match="Invalid NumPy dtype specified: 'int33'|"
                                                "Invalid NumPy dtype specified: 'float31'"):
        jit(namespace["kernel"])[1, 1](np.zeros(1))


def module_types(out):
    out[0] = types.float32(0.1)
    out[1] = cuda.float32(0.1)


def test_type_objects_through_modules(jit):
    out = np.zeros(2, dtype=np.float64)
    jit(module_types)[1, 1](out)
    np.testing.assert_array_equal(out, np.float64(np.float32(0.1)))


@cuda.jit(float32(float32, float32), device=True)
def halve_sum(a, b):
    return (a + b) / 2


@cuda.jit("int16(int16)", device=True)
def increment16(v):
    return v + 1


@cuda.jit(int32(float64), device=True)
def times_two_and_a_half(v):
    return v * 2.5


@cuda.jit([void(float64[:], int64, float64), void(int8[:], int64, int8)], device=True)
def put(a, i, v):
    a[i] = v


def call_typed_device_functions(out, small):
    out[0] = halve_sum(16777217, 0)  # int64 arguments converted to float32
    out[1] = increment16(32767)  # computed in int16, where it wraps
    out[2] = times_two_and_a_half(3)  # the float64 result converted to int32
    put(out, 3, np.int32(7))  # the signature of out's type, its scalar converted
    put(small, 0, 300)  # int8[:] picks the other signature, 300 wraps in int8


def test_device_function_signatures_convert_arguments_and_results(jit):
    out = np.zeros(4, dtype=np.float64)
    small = np.zeros(1, dtype=np.int8)
    jit(call_typed_device_functions)[1, 1](out, small)
    np.testing.assert_array_equal(out, [2.0 ** 23, -32768, 7, 7])
    assert small[0] == np.int8(300 - 256)


def call_put_with_wrong_array(out):
    put(out, 0, 1.0)


def test_device_function_with_no_fitting_signature(jit):
    kernel = jit(call_put_with_wrong_array)
    with pytest.raises(kaji.CompileError, match=r"device function 'put' has no signature for "
                       r"arguments \(float32\[::1\], int64, float64\)"):
        kernel[1, 1](np.zeros(1, dtype=np.float32))


# (argument, type object, what isinstance gives): Numba's rules, where int is every integer
# type, float every float type, and a numpy or kaji type is its own.
ISINSTANCE_CASES = [
    (np.int32(3), int, True), (np.uint8(3), int, True), (np.float32(1), int, False),
    (np.float32(1), float, True), (np.float16(1), float, True), (2.5, float, True),
    (np.complex64(1j), complex, True), (True, bool, True), (True, int, False),
    (np.int32(3), np.int32, True), (np.int32(3), np.int64, False), (np.float32(1), float32, True),
    (np.float64(1), (int, float32), False), (np.float64(1), (int, float), True),
    ((1, 2), tuple, True), (np.int64(1), tuple, False),
]


@pytest.mark.parametrize("value, kind, want", ISINSTANCE_CASES,
                         ids=[f"{type(v).__name__}-{k}" for v, k, _ in ISINSTANCE_CASES])
def test_isinstance_is_decided_from_the_type(jit, value, kind, want):
    def kernel(out, v):
        out[0] = isinstance(v, kind)

    out = np.zeros(1, np.bool_)
    jit(kernel)[1, 1](out, value)
    assert out[0] == want


def test_isinstance_of_something_no_type_is_a_compile_error(jit):
    def kernel(out, v):
        out[0] = isinstance(v, 3)

    with pytest.raises(kaji.CompileError, match="isinstance\\(\\)'s second argument must be"):
        jit(kernel)[1, 1](np.zeros(1, np.bool_), 1.0)
