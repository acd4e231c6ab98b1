"""`f(*t)`: a tuple unpacked into a call's positional arguments, as Python binds them (the
callee, then the arguments left to right, then keywords, each evaluated once), for device
functions, builtins, math functions and constructors, against the same calls run by Python."""

import cmath
import math

import numpy as np
import pytest

import kaji
from kaji import cuda


@cuda.jit(device=True)
def weighted(a, b, c):
    return a + b * 10 + c * 100


def unpacking_calls(out, z, counter):
    pair = (1, 2)
    out[0] = weighted(*pair, 3)
    out[1] = weighted(4, *pair)
    out[2] = weighted(*(5, 6), c=7)
    out[3] = weighted(*pair[::-1], *(8,))
    out[4] = math.hypot(*(3.0, 4.0))
    out[5] = complex(*cmath.polar(z[0])).imag
    out[6] = max(*pair, 0)
    # Each part is evaluated once, in order: the counter reads 1, then 2.
    out[7] = weighted(*(bump(counter), bump(counter)), 0)


@cuda.jit(device=True)
def bump(counter):
    counter[0] += 1
    return counter[0]


def test_unpacked_calls_bind_as_python_binds_them(jit):
    out = np.zeros(8)
    z = np.array([1 + 1j])
    counter = np.zeros(1, dtype=np.int64)
    jit(unpacking_calls)[1, 1](out, z, counter)
    polar = cmath.polar(z[0])
    expected = [321, 214, 765, 2 + 10 + 800, 5.0, complex(*polar).imag, 2, 1 + 20]
    np.testing.assert_allclose(out, expected, rtol=1e-15)
    assert counter[0] == 2


def unpack_an_array(out):
    out[0] = weighted(*out)


def unpack_keywords(out):
    options = 1
    out[0] = weighted(**options)


def unpack_too_few(out):
    out[0] = weighted(*(1, 2))


@pytest.mark.parametrize("kernel, message", [
    (unpack_an_array, r"only a tuple can be unpacked into a call's arguments in a kernel, "
                      r"not 'float64\[::1\]' \('\*out'\)"),
    (unpack_keywords, r"keyword argument unpacking \('\*\*'\) is not supported"),
    (unpack_too_few, r"weighted\(\) missing required argument 'c'"),
])
def test_what_cannot_be_unpacked_is_a_compile_error(jit, kernel, message):
    with pytest.raises(kaji.CompileError, match=message):
        jit(kernel)[1, 1](np.zeros(3))
