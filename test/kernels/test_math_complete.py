"""The math functions Numba's CUDA target has beyond the common ones (frexp, ldexp, modf,
remainder, nextafter, radians, degrees), round() and int.bit_count(), against Python's math
and builtins.

Tolerances: on the cpu target math is the C library's (correctly rounded or within 1 ulp);
on the GPU libdevice documents at most 2 ulp for these functions in float64 and 4 in
float32, which the rtol below covers. frexp, ldexp, modf, remainder, nextafter and round are
exact on both."""

import math

import numpy as np
import pytest

import kaji

FLOAT_TYPES = [np.float32, np.float64]
VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, 3.75, -3.75, 1e-3, 123456.789, -2.5e10, 7.0, 1e-30]


def rtol_for(dtype):
    return 1e-6 if dtype == np.float32 else 1e-15


def frexp_kernel(mantissas, exponents, x):
    i = kaji.grid(1)
    if i < x.size:
        m, e = math.frexp(x[i])
        mantissas[i] = m
        exponents[i] = e


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_frexp_splits_like_python(jit, dtype):
    x = np.array(VALUES, dtype=dtype)
    mantissas = np.zeros_like(x)
    exponents = np.zeros(x.size, dtype=np.int32)
    jit(frexp_kernel)[1, 32](mantissas, exponents, x)
    for value, m, e in zip(x, mantissas, exponents):
        assert (m, e) == math.frexp(float(value))


def ldexp_kernel(out, x, n):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = math.ldexp(x[i], n[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_ldexp_scales_by_powers_of_two(jit, dtype):
    x = np.array(VALUES, dtype=dtype)
    n = np.arange(-6, 6, dtype=np.int32)
    out = np.zeros_like(x)
    jit(ldexp_kernel)[1, 32](out, x, n)
    np.testing.assert_array_equal(out, np.ldexp(x, n))


def modf_remainder(fractions, wholes, remainders, x, y):
    i = kaji.grid(1)
    if i < x.size:
        f, w = math.modf(x[i])
        fractions[i] = f
        wholes[i] = w
        remainders[i] = math.remainder(x[i], y[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_modf_and_remainder_match_python(jit, dtype):
    x = np.array(VALUES, dtype=dtype)
    y = np.array([1.5, 2.0, 0.75, -3.0, 0.25, 2.0, 2.0, 3.0, 10.0, 7.0, 2.0, 1.0], dtype=dtype)
    fractions, wholes, remainders = (np.zeros_like(x) for _ in range(3))
    jit(modf_remainder)[1, 32](fractions, wholes, remainders, x, y)
    for i, value in enumerate(x):
        expected = math.modf(float(value))
        assert (fractions[i], wholes[i]) == pytest.approx(expected, rel=rtol_for(dtype))
        assert remainders[i] == dtype(math.remainder(float(value), float(y[i])))


def next_floats(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = math.nextafter(x[i], y[i])
        out[1, i] = np.nextafter(x[i], y[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_nextafter_steps_one_float_of_the_operands_precision(jit, dtype):
    info = np.finfo(dtype)
    x = np.array([1.0, 1.0, 0.0, -0.0, 0.0, info.smallest_subnormal, info.max, -info.max,
                  np.inf, 1e-11, 2.5, np.nan, 3.0, 0.0], dtype)
    y = np.array([2.0, 0.0, 1.0, -1.0, -0.0, 0.0, np.inf, -np.inf, 0.0, 1.0, 2.5, 1.0, np.nan,
                  0.0], dtype)
    out = np.zeros((2, x.size), dtype)
    jit(next_floats)[1, 32](out, x, y)
    with np.errstate(over="ignore"):
        expected = np.nextafter(x, y)
    for row in out:
        np.testing.assert_array_equal(row, expected)
        assert np.array_equal(np.signbit(row), np.signbit(expected))


def next_of_ints(out, n):
    out[0] = math.nextafter(n, 0)


def test_nextafter_of_integers_steps_in_float64(jit):
    out = np.zeros(1)
    jit(next_of_ints)[1, 1](out, 3)
    assert out[0] == math.nextafter(3.0, 0.0)


def test_nextafter_of_float16_is_refused(jit):
    def kernel(out, x):
        out[0] = np.nextafter(x[0], x[1])

    with pytest.raises(kaji.CompileError, match=r"numpy.nextafter\(\) of 'float16' is not supported"):
        jit(kernel)[1, 1](np.zeros(1, np.float16), np.zeros(2, np.float16))


def angles(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = math.radians(x[i])
        out[1, i] = math.degrees(x[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_radians_and_degrees(jit, dtype):
    x = np.linspace(-720, 720, 100).astype(dtype)
    out = np.zeros((2, x.size), dtype=dtype)
    jit(angles)[1, 128](out, x)
    np.testing.assert_allclose(out[0], np.radians(x), rtol=rtol_for(dtype))
    np.testing.assert_allclose(out[1], np.degrees(x), rtol=rtol_for(dtype))


def round_one(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = round(x[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_round_is_half_to_even_and_gives_ints(jit, dtype):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 2.5001, 1e15 + 0.5, -7.0, 0.0],
                 dtype=dtype)
    out = np.zeros(x.size, dtype=np.int64)
    jit(round_one)[1, 32](out, x)
    assert list(out) == [round(float(v)) for v in x]


def round_digits(out, x, digits):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = round(x[i], digits)


def scaled_round(x, digits):
    """round(x, digits) as Numba computes it: CPython's algorithm before correctly rounded
    decimal conversion (2.7), which scales by a power of ten in binary floating point."""
    if not math.isfinite(x):
        return x
    if digits >= 0:
        pow1, pow2 = (10.0 ** (digits - 22), 1e22) if digits > 22 else (10.0 ** digits, 1.0)
        y = (x * pow1) * pow2
        if math.isinf(y):
            return x
    else:
        pow1 = 10.0 ** -digits if -digits <= 308 else math.inf
        y = x / pow1
    z = float(math.floor(abs(y) + 0.5)) * (1 if y >= 0 else -1)  # half away from zero
    if abs(y - z) == 0.5:
        z = 2.0 * float(math.floor(abs(y / 2.0) + 0.5)) * (1 if y >= 0 else -1)
    if z == 0:
        return math.copysign(0.0, x)
    z = (z / pow2) / pow1 if digits >= 0 else z * pow1
    return x if math.isinf(z) else z


ROUND_INPUTS = [0.125, 0.375, -2.5, 1234.5678, 15.0, 25.0, -35.0, 1e300, 0.0, -0.0, 1e-5]


@pytest.mark.parametrize("digits", [0, 1, 2, 3, -1, -2, 30, -400])
def test_round_to_digits_as_numba_and_python(jit, digits):
    x = np.array(ROUND_INPUTS + [2.675, -1.005], dtype=np.float64)
    out = np.zeros_like(x)
    jit(round_digits)[1, 32](out, x, digits)
    assert [float(v) for v in out] == [scaled_round(float(v), digits) for v in x]
    if digits <= 15:
        # Where scaling is exact Python's correctly rounded round() agrees.
        assert [float(v) for v in out[:len(ROUND_INPUTS)]] == [
            round(v, digits) for v in ROUND_INPUTS]


def test_round_differs_from_python_where_scaling_rounds(jit):
    # 2.675 is 2.67499999999999982...: Python's round gives 2.67; 2.675 * 100 rounds to
    # 267.5 in binary, so Numba's (and kaji's) algorithm gives 2.68 (docs/numba-compat.md).
    out = np.zeros(1)
    jit(round_digits)[1, 1](out, np.array([2.675]), 2)
    assert out[0] == 2.68 and round(2.675, 2) == 2.67


def round_keeps_float32(out, x):
    out[0] = round(x[0], 2)


def test_round_to_digits_keeps_the_float_type(jit):
    x = np.array([3.14159], dtype=np.float32)
    out = np.zeros(1, dtype=np.float32)
    kernel = jit(round_keeps_float32)
    kernel[1, 1](out, x)
    assert out[0] == np.float32(round(float(x[0]), 2))


def round_int(out, n):
    out[0] = round(n)


def test_round_of_an_int_is_the_int(jit):
    out = np.zeros(1, dtype=np.int64)
    jit(round_int)[1, 1](out, np.int64(-123456789012))
    assert out[0] == -123456789012


def bit_counts(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i].bit_count()


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint32, np.uint64])
def test_bit_count_counts_ones_of_the_magnitude(jit, dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, 7, 255 if info.max >= 255 else 127, info.max, info.min, -1 if info.min
                  else 3, -5 if info.min else 12], dtype=dtype)
    out = np.zeros(x.size, dtype=np.int64)
    jit(bit_counts)[1, 32](out, x)
    assert list(out) == [int(v).bit_count() for v in x]


def none_tests(out, a):
    out[0] = a is None
    out[1] = None is None
    out[2] = None is not None
    out[3] = a is not None


def test_is_none_is_decided_by_the_operand_type(jit):
    out = np.zeros(4, dtype=np.bool_)
    jit(none_tests)[1, 1](out, 1.5)
    assert list(out) == [False, True, False, True]
