"""Builtins (min, max, abs, len, range) and the math module (functions, predicates and
constants) against numpy, for float32 and float64."""

import math
from math import sqrt

import numpy as np
import pytest

import kaji

N = 1000
FLOAT_TYPES = [np.float32, np.float64]


def rtol_for(dtype):
    return 2e-6 if dtype == np.float32 else 1e-14


def exp_log(out, x):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = math.sqrt(v)
        out[1, i] = math.exp(v)
        out[2, i] = math.log(v)
        out[3, i] = math.log2(v)
        out[4, i] = math.log10(v)
        out[5, i] = math.pow(v, 1.7)
        out[6, i] = math.pow(2.0, v)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_exp_log_sqrt_pow(jit, dtype):
    x = np.linspace(0.01, 20, N).astype(dtype)
    out = np.zeros((7, N), dtype=dtype)
    jit(exp_log)[8, 128](out, x)
    expected = [np.sqrt(x), np.exp(x), np.log(x), np.log2(x), np.log10(x),
                np.power(x, dtype(1.7)), np.power(dtype(2.0), x)]
    for row, reference in zip(out, expected):
        np.testing.assert_allclose(row, reference, rtol=rtol_for(dtype))


def trig(out, x):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        out[0, i] = math.sin(v)
        out[1, i] = math.cos(v)
        out[2, i] = math.tan(v)
        out[3, i] = math.tanh(v)


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_trigonometric_functions(jit, dtype):
    x = np.linspace(-3, 3, N).astype(dtype)
    out = np.zeros((4, N), dtype=dtype)
    jit(trig)[8, 128](out, x)
    expected = [np.sin(x), np.cos(x), np.tan(x), np.tanh(x)]
    for row, reference in zip(out, expected):
        np.testing.assert_allclose(row, reference, rtol=rtol_for(dtype) * 4,
                                   atol=1e-6 if dtype == np.float32 else 1e-15)


def inverse_trig(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = math.asin(x[i])
        out[1, i] = math.acos(x[i])
        out[2, i] = math.atan(y[i])
        out[3, i] = math.atan2(x[i], y[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_inverse_trigonometric_functions(jit, dtype):
    x = np.linspace(-0.99, 0.99, N).astype(dtype)
    y = np.linspace(-50, 50, N).astype(dtype)
    out = np.zeros((4, N), dtype=dtype)
    jit(inverse_trig)[8, 128](out, x, y)
    expected = [np.arcsin(x), np.arccos(x), np.arctan(y), np.arctan2(x, y)]
    for row, reference in zip(out, expected):
        np.testing.assert_allclose(row, reference, rtol=rtol_for(dtype) * 4,
                                   atol=1e-6 if dtype == np.float32 else 1e-15)


def rounding(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = math.floor(x[i])
        out[1, i] = math.ceil(x[i])
        out[2, i] = math.fabs(x[i])
        out[3, i] = abs(x[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_floor_ceil_fabs_abs(jit, dtype):
    x = np.concatenate([np.linspace(-10, 10, 997), [-0.5, 0.5, 3.0]]).astype(dtype)
    out = np.zeros((4, x.size), dtype=dtype)
    jit(rounding)[8, 128](out, x)
    np.testing.assert_array_equal(out, np.array([np.floor(x), np.ceil(x), np.abs(x),
                                                 np.abs(x)]))


def floor_to_int(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = math.floor(x[i]) // 2
        out[1, i] = math.ceil(x[i]) % 3


def test_floor_and_ceil_in_integer_arithmetic(jit):
    x = np.linspace(-10.5, 10.5, 43)
    out = np.zeros((2, x.size), dtype=np.int64)
    jit(floor_to_int)[1, 64](out, x)
    expected = []
    for v in x.tolist():
        expected.append([math.floor(v) // 2, math.ceil(v) % 3])
    np.testing.assert_array_equal(out, np.array(expected).T)


def error_function(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = math.erf(x[i])


@pytest.mark.parametrize("dtype", FLOAT_TYPES)
def test_erf(jit, dtype):
    x = np.linspace(-4, 4, N).astype(dtype)
    out = np.zeros_like(x)
    jit(error_function)[8, 128](out, x)
    expected = np.array(list(map(math.erf, x.astype(np.float64).tolist())), dtype=dtype)
    np.testing.assert_allclose(out, expected, rtol=rtol_for(dtype) * 4, atol=1e-7)


def predicates(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = math.isnan(x[i])
        out[1, i] = math.isinf(x[i])
        out[2, i] = not math.isnan(x[i]) and not math.isinf(x[i])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_isnan_isinf(jit, dtype):
    x = np.array([0.0, -0.0, 1.0, math.inf, -math.inf, math.nan, -math.nan, 1e-8],
                 dtype=dtype)
    out = np.zeros((3, x.size), dtype=np.bool_)
    jit(predicates)[1, x.size](out, x)
    np.testing.assert_array_equal(out, np.array([np.isnan(x), np.isinf(x), np.isfinite(x)]))


def constants(out):
    if kaji.grid(1) == 0:
        out[0] = math.pi
        out[1] = math.e
        out[2] = math.inf
        out[3] = -math.inf
        out[4] = math.nan
        out[5] = math.pi * 2.0 - math.e


def test_math_constants(jit):
    out = np.zeros(6, dtype=np.float64)
    jit(constants)[1, 1](out)
    np.testing.assert_array_equal(out, [math.pi, math.e, math.inf, -math.inf, math.nan, math.pi * 2.0 - math.e])


def float32_constant_arithmetic(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * math.pi


def test_math_constants_combine_with_float32_like_numpy(jit):
    x = np.linspace(-5, 5, N).astype(np.float32)
    out = np.zeros(N, dtype=np.float64)
    jit(float32_constant_arithmetic)[8, 128](out, x)
    np.testing.assert_array_equal(out, (x * math.pi).astype(np.float64))


def min_max(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = min(x[i], y[i])
        out[1, i] = max(x[i], y[i])
        out[2, i] = min(x[i], y[i], 0)
        out[3, i] = max(x[i], 3, y[i])
        out[4, i] = min(max(x[i], 2), 5)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint32, np.float32,
                                   np.float64])
def test_min_max(jit, dtype):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 20, N).astype(dtype)
    y = rng.integers(0, 20, N).astype(dtype)
    if not np.issubdtype(dtype, np.unsignedinteger):
        x = x - dtype(10)
        y = y - dtype(10)
    out = np.zeros((5, N), dtype=dtype)
    jit(min_max)[8, 128](out, x, y)
    expected = np.array([np.minimum(x, y), np.maximum(x, y), np.minimum(np.minimum(x, y), 0),
                         np.maximum(np.maximum(x, 3), y), np.clip(x, 2, 5)])
    np.testing.assert_array_equal(out, expected.astype(dtype))


def min_max_mixed(out, x, n):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = min(x[i], n)
        out[1, i] = max(i, x[i])
        out[2, i] = max(x[i], 0.25)


def test_min_max_of_mixed_types_promote(jit):
    x = np.linspace(-3, 300, 64).astype(np.float32)
    out = np.zeros((3, x.size), dtype=np.float64)
    jit(min_max_mixed)[1, 64](out, x, 7)
    i = np.arange(64)
    np.testing.assert_array_equal(out[0], np.minimum(x.astype(np.float64), 7))
    np.testing.assert_array_equal(out[1], np.maximum(i, x.astype(np.float64)))
    np.testing.assert_array_equal(out[2], np.maximum(x, np.float32(0.25)))


def min_max_nan(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = min(x[i], y[i])
        out[1, i] = max(x[i], y[i])


def test_min_max_with_nan_follow_python(jit):
    x = np.array([1.0, math.nan, math.nan, 2.0, -0.0], dtype=np.float64)
    y = np.array([math.nan, 1.0, math.nan, 1.0, 0.0], dtype=np.float64)
    out = np.zeros((2, x.size), dtype=np.float64)
    jit(min_max_nan)[1, x.size](out, x, y)
    expected = []
    for a, b in zip(x.tolist(), y.tolist()):
        expected.append([min(a, b), max(a, b)])
    np.testing.assert_array_equal(out, np.array(expected).T)


def lengths(out, x, m):
    if kaji.grid(1) == 0:
        out[0] = len(x)
        out[1] = len(m)
        total = 0
        for j in range(len(x)):
            total += j
        out[2] = total


def test_len(jit):
    x = np.zeros(37, dtype=np.float32)
    m = np.zeros((5, 9), dtype=np.int8)
    out = np.zeros(3, dtype=np.int64)
    jit(lengths)[1, 1](out, x, m)
    np.testing.assert_array_equal(out, [37, 5, sum(range(37))])


def imported_names(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = sqrt(x[i]) + np.sqrt(x[i]) + np.abs(-x[i])


def test_math_function_imported_by_name_and_numpy_functions(jit):
    x = np.linspace(0, 100, N)
    out = np.zeros_like(x)
    jit(imported_names)[8, 128](out, x)
    np.testing.assert_allclose(out, 2 * np.sqrt(x) + x, rtol=1e-15)


def numpy_min_max(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.minimum(x[i], y[i])
        out[1, i] = np.maximum(x[i], y[i])
        out[2, i] = np.fmin(x[i], y[i])
        out[3, i] = np.fmax(x[i], y[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numpy_minimum_maximum_propagate_nan_fmin_fmax_ignore_it(jit, dtype):
    # NaN in either position, in both; ordinary values both ways round.
    x = np.array([1.0, math.nan, math.nan, 2.0, -3.0, math.inf, 5.0], dtype=dtype)
    y = np.array([math.nan, 1.0, math.nan, 1.0, -math.inf, 4.0, 5.0], dtype=dtype)
    out = np.zeros((4, x.size), dtype=dtype)
    jit(numpy_min_max)[1, x.size](out, x, y)
    expected = [np.minimum(x, y), np.maximum(x, y), np.fmin(x, y), np.fmax(x, y)]
    np.testing.assert_array_equal(out, np.array(expected))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint32])
def test_numpy_fmin_fmax_of_integers(jit, dtype):
    x = np.array([0, 7, 100, 3], dtype=dtype)
    y = np.array([5, 7, 2, 90], dtype=dtype)
    out = np.zeros((4, x.size), dtype=dtype)
    jit(numpy_min_max)[1, x.size](out, x, y)
    expected = [np.minimum(x, y), np.maximum(x, y), np.fmin(x, y), np.fmax(x, y)]
    np.testing.assert_array_equal(out, np.array(expected))


def numpy_integer_power(out, x, n):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.power(x[i], n[i])
        out[1, i] = x[i] ** n[i]
        out[2, i] = np.power(np.int32(2), 31)


def test_numpy_power_of_integers_wraps_like_the_operator(jit):
    x = np.array([2, 3, -2, 7, 1], dtype=np.int32)
    n = np.array([31, 21, 31, 12, 40], dtype=np.int32)
    out = np.zeros((3, x.size), dtype=np.int32)
    jit(numpy_integer_power)[1, x.size](out, x, n)
    expected = np.power(x, n)
    np.testing.assert_array_equal(out[0], expected)
    np.testing.assert_array_equal(out[1], expected)
    np.testing.assert_array_equal(out[2], np.full(x.size, np.power(np.int32(2), np.int32(31))))


def pow_of(out, a, b):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = pow(a[i], b[i])


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64, np.complex128])
def test_builtin_pow_is_the_power_operator(jit, dtype):
    a = np.array([2, 3, -2, 5, 1, 0], dtype=dtype)
    b = np.array([3, 0, 5, 2, 7, 4], dtype=dtype)
    out = np.zeros(a.size, dtype=dtype)
    jit(pow_of)[1, 32](out, a, b)
    np.testing.assert_allclose(out, a ** b, rtol=1e-6)


def test_builtin_pow_with_a_modulus_is_refused(jit):
    def kernel(out, a):
        out[0] = pow(a[0], 2, 5)

    with pytest.raises(kaji.CompileError, match=r"pow\(\) takes two arguments in kernels"):
        jit(kernel)[1, 1](np.zeros(1, np.int64), np.ones(1, np.int64))
