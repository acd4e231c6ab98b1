"""A kernel compiled eagerly for several signatures runs the one that fits a launch's
arguments best, ranked as Numba ranks overloads: an exact match before promotions (float32 to
float64), promotions before safe conversions (int32 to float64), safe conversions before unsafe
ones (float64 to float32); two equally good ones are a TypeError, as Numba's."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def store_argument(out, value):
    out[0] = value


def overloads(*scalar_types):
    return cuda.jit([f"void(float64[::1], {name})" for name in scalar_types],
                    target="cpu")(store_argument)


def stored(kernel, value):
    out = np.zeros(1)
    kernel[1, 1](out, value)
    return out[0]


# float64(float32(0.1)) is not 0.1: which overload ran shows in the stored value.
FLOAT32_TENTH = float(np.float32(0.1))


@pytest.mark.parametrize("declared", [("float32", "float64"), ("float64", "float32")])
def test_a_python_float_runs_the_float64_overload(declared):
    assert stored(overloads(*declared), 0.1) == 0.1


@pytest.mark.parametrize("declared", [("float32", "float64"), ("float64", "float32")])
def test_a_float32_runs_the_float32_overload(declared):
    assert stored(overloads(*declared), np.float32(0.1)) == FLOAT32_TENTH


def test_a_promotion_comes_before_an_unsafe_conversion():
    kernel = overloads("float16", "float64")
    assert stored(kernel, np.float32(0.1)) == FLOAT32_TENTH


def test_a_safe_conversion_comes_before_an_unsafe_one():
    # int32 to float32 may round; to float64 it keeps the value.
    assert stored(overloads("float32", "float64"), np.int32(2**24 + 1)) == 2**24 + 1


def test_two_equally_good_overloads_are_ambiguous():
    def add(r, x, y):
        r[0] = x + y

    kernel = cuda.jit(["(float64[::1], float32, float64)", "(float64[::1], float64, float32)",
                       "(float64[::1], int64, int64)"], target="cpu")(add)
    with pytest.raises(TypeError, match=r"Ambiguous overloading for kernel 'add' with arguments "
                                        r"void\(float64\[::1\], float64, float64\): they "
                                        r"convert as well to void\(float64\[::1\], float32, "
                                        r"float64\) as to void\(float64\[::1\], float64, "
                                        r"float32\)"):
        stored_sum = np.zeros(1)
        kernel[1, 1](stored_sum, 1.0, 2.0)
    # Arguments of one signature's types pick it.
    kernel[1, 1](stored_sum, np.float32(1.0), 2.0)
    assert stored_sum[0] == 3.0


def test_integer_overloads_by_width_and_signedness():
    kernel = overloads("uint8", "int16", "int64")
    assert stored(kernel, np.uint8(200)) == 200
    with pytest.raises(TypeError, match="Ambiguous overloading"):
        stored(kernel, np.int8(-5))  # promoted to int16 or to int64 alike, as Numba rates them
    assert stored(kernel, np.uint16(60000)) == 60000  # int64 keeps it, int16 would not



# A device function given signatures: a call in a kernel takes the best one its arguments
# convert to, by the same ranking; unlike a launch, an unsafe conversion (float to int) is
# allowed, and of equally good signatures the first declared is taken, as Numba's device calls.
def _add(x, y):
    return x + y


def device_overloads(*signatures):
    add = cuda.jit(list(signatures), device=True)(_add)

    @cuda.jit(target="cpu")
    def kernel(r, x, y):
        r[0] = add(x, y)

    return kernel


def device_result(kernel, x, y, dtype=np.float64):
    r = np.zeros(1, dtype)
    kernel[1, 1](r, x, y)
    return r[0]


def test_a_device_call_takes_the_signature_its_arguments_convert_to_best():
    kernel = device_overloads("(float32, float32)", "(float64, float64)")
    # Python ints and floats are int64 and float64: float64 keeps them, float32 would not.
    assert device_result(kernel, 1, 2**-25) == 1.0000000298023224
    assert device_result(kernel, np.float32(1), np.float32(2**-25)) == 1.0
    kernel = device_overloads("(int64, int64)", "(float64, float64)")
    assert device_result(kernel, np.int32(1), 2.5) == 3.5  # int32 to float64 is safe


def test_a_device_call_converts_unsafely_when_it_must():
    kernel = device_overloads("(int64, int64)")
    assert device_result(kernel, 1.5, 2.5, np.int64) == 3


def test_a_device_call_between_equally_good_signatures_takes_the_first():
    kernel = device_overloads("(float32, float64)", "(float64, float32)", "(int64, int64)")
    assert device_result(kernel, 1.5, 2.5) == 4.0


def test_a_complex_argument_converts_to_no_real_parameter():
    kernel = device_overloads("(int64, int64)", "(float64, float64)")
    with pytest.raises(kaji.CompileError, match="has no signature for arguments "
                                                r"\(complex128, complex128\)"):
        device_result(kernel, 1j, 1j, np.complex128)
