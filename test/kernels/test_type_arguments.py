"""Number types passed to kernels as values (Numba's NumberClass arguments,
`kernel[1, 1](out, np.float32)`): the kernel is specialized on the type, which it uses as a
dtype or a conversion, in every spelling (numpy's scalar types and dtypes, kaji's and Numba's
type objects), lazily, by an eager `class(T)` signature, by specialize() and inside tuples."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.types import NumberClass, float64, int32, typeof, void


def through_local_array(out, dtype):
    values = cuda.local.array(3, dtype)
    for i in range(3):
        values[i] = 1.75 * i + 1
    for i in range(3):
        out[i] = values[i]


def converted(out, x, dtype):
    out[0] = dtype(x)


def expected_through(dtype):
    return np.array([1.75 * i + 1 for i in range(3)]).astype(dtype).astype(np.float64)


@pytest.mark.parametrize("spelling", [np.int16, np.dtype("uint8"), kaji.float32, np.float64,
                                      np.bool_], ids=str)
def test_a_type_argument_is_the_dtype_of_a_local_array(jit, spelling):
    kernel = jit(through_local_array)
    out = np.zeros(3)
    kernel[1, 1](out, spelling)
    dtype = np.dtype(kaji.types.as_dtype(kaji.types.as_type(spelling)))
    np.testing.assert_array_equal(out, expected_through(dtype))


def test_each_type_is_a_specialization_of_its_own(jit):
    kernel = jit(converted)
    out = np.zeros(1)
    for dtype in (np.int8, np.float32, np.uint16, np.int8):
        kernel[1, 1](out, 2.5, dtype)
        assert out[0] == np.float64(np.float64(2.5).astype(dtype))
    assert kernel.signatures == ["void(float64[::1], float64, class(int8))",
                                 "void(float64[::1], float64, class(float32))",
                                 "void(float64[::1], float64, class(uint16))"]


def test_an_eager_class_signature_takes_that_type_only(jit):
    kernel = jit(void(float64[::1], typeof(np.int32)))(through_local_array)
    out = np.zeros(3)
    kernel[1, 1](out, np.int32)
    np.testing.assert_array_equal(out, expected_through(np.int32))
    with pytest.raises(TypeError, match=r"no signature for arguments void\(float64\[::1\], "
                                        r"class\(float64\)\)"):
        kernel[1, 1](out, np.float64)


def test_specialize_and_tuples_of_types(jit):
    specialized = jit(through_local_array).specialize(np.zeros(3), np.float32)
    assert specialized.signatures == ["void(float64[::1], class(float32))"]

    def second_of(out, dtypes):
        values = cuda.local.array(1, dtypes[1])
        values[0] = 300.7
        out[0] = values[0]

    out = np.zeros(1)
    jit(second_of)[1, 1](out, (np.float32, np.int16))
    assert out[0] == 300


def test_typeof_a_type_is_its_number_class():
    assert typeof(np.int32) == NumberClass(int32) and str(typeof(np.int32)) == "class(int32)"
    assert typeof(kaji.float32).instance_type == kaji.float32
    assert str(void(float64[::1], typeof(np.int32))) == "(array(float64, 1d, C), class(int32)) -> none"


def test_a_device_signature_cannot_take_a_type():
    with pytest.raises(kaji.CompileError, match="a device function's signature cannot take a "
                                                "type"):
        kaji.jit("float64(class(int32))", device=True)(lambda dtype: 1.0)
