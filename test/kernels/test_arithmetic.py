"""Arithmetic operators: + - * / // % **, unary operators, precedence, NEP 50 promotion of
weak Python literals and of mixed array and scalar types, augmented assignment, chained
comparisons and the conditional expression."""

import operator

import numpy as np
import pytest

import kaji

N = 1000
THREADS = 128
BLOCKS = (N + THREADS - 1) // THREADS


def operands(dtype, n=N, seed=0):
    """Two arrays of `dtype` with mixed signs (for signed types) and no zero divisor."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    if info is not None:
        low = max(info.min, -100)
        x = rng.integers(low, 100, n).astype(dtype)
        y = rng.integers(low, 100, n).astype(dtype)
        y[y == 0] = 3
    else:
        x = rng.uniform(-50, 50, n).astype(dtype)
        y = rng.uniform(-50, 50, n).astype(dtype)
    return x, y


def python_elementwise(function, x, y):
    """`function` applied to Python scalars, element by element, in x's dtype."""
    results = []
    for a, b in zip(x.tolist(), y.tolist()):
        results.append(function(a, b))
    return np.array(results, dtype=x.dtype)


def add_sub_mul(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] + y[i]
        out[1, i] = x[i] - y[i]
        out[2, i] = x[i] * y[i]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8,
                                   np.uint16, np.uint32, np.uint64, np.float32, np.float64])
def test_add_sub_mul(jit, dtype):
    x, y = operands(dtype)
    out = np.zeros((3, N), dtype=dtype)
    jit(add_sub_mul)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_array_equal(out[0], x + y)
    np.testing.assert_array_equal(out[1], x - y)
    np.testing.assert_array_equal(out[2], x * y)


def true_divide(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] / y[i]


@pytest.mark.parametrize("dtype, out_dtype", [(np.int32, np.float64), (np.int64, np.float64),
                                              (np.uint8, np.float64), (np.float32, np.float32),
                                              (np.float64, np.float64)])
def test_true_division(jit, dtype, out_dtype):
    x, y = operands(dtype)
    out = np.zeros(N, dtype=out_dtype)
    jit(true_divide)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_array_equal(out, np.true_divide(x, y))


def true_divide_result_type(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        q = x[i] / y[i]
        out[i] = q * 1e-300


def test_integer_true_division_is_float64(jit):
    x = np.full(N, 7, dtype=np.int32)
    y = np.full(N, 2, dtype=np.int32)
    out = np.zeros(N, dtype=np.float64)
    jit(true_divide_result_type)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_array_equal(out, np.full(N, 3.5 * 1e-300))


def floor_div_mod(quot, rem, x, y):
    i = kaji.grid(1)
    if i < x.size:
        quot[i] = x[i] // y[i]
        rem[i] = x[i] % y[i]


def signed_pairs(dtype):
    values = np.array([7, -7, 6, -6, 1, -1, 0, 13, -13, 100, -100], dtype=np.int64)
    divisors = np.array([2, -2, 3, -3, 5, -5, 1, -1, 7, -7, 100], dtype=np.int64)
    x, y = np.meshgrid(values, divisors)
    return x.ravel().astype(dtype), y.ravel().astype(dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_integer_floor_division_and_modulo_follow_python(jit, dtype):
    x, y = signed_pairs(dtype)
    quot = np.zeros_like(x)
    rem = np.zeros_like(x)
    jit(floor_div_mod)[1, x.size](quot, rem, x, y)
    expected_quot = python_elementwise(operator.floordiv, x, y)
    expected_rem = python_elementwise(operator.mod, x, y)
    np.testing.assert_array_equal(quot, expected_quot)
    np.testing.assert_array_equal(rem, expected_rem)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64])
def test_unsigned_floor_division_and_modulo(jit, dtype):
    x, y = operands(dtype)
    quot = np.zeros_like(x)
    rem = np.zeros_like(x)
    jit(floor_div_mod)[BLOCKS, THREADS](quot, rem, x, y)
    np.testing.assert_array_equal(quot, x // y)
    np.testing.assert_array_equal(rem, x % y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_floor_division_and_modulo_follow_python(jit, dtype):
    x = np.array([7.5, -7.5, 7.5, -7.5, 1e-3, -1e-3, 0.0, -0.0, 5.0, -5.0, 3.25, 1e10],
                 dtype=dtype)
    y = np.array([2.0, 2.0, -2.0, -2.0, 1.0, 1.0, 3.0, 3.0, -5.0, 5.0, 0.5, -3.0],
                 dtype=dtype)
    quot = np.zeros_like(x)
    rem = np.zeros_like(x)
    jit(floor_div_mod)[1, x.size](quot, rem, x, y)
    expected_quot = python_elementwise(operator.floordiv, x, y)
    expected_rem = python_elementwise(operator.mod, x, y)
    if dtype == np.float64:
        np.testing.assert_array_equal(quot, expected_quot)
        np.testing.assert_array_equal(rem, expected_rem)
    np.testing.assert_array_equal(quot, np.floor_divide(x, y))
    np.testing.assert_array_equal(rem, np.mod(x, y))
    np.testing.assert_array_equal(np.signbit(rem), np.signbit(np.mod(x, y)))
    np.testing.assert_array_equal(np.signbit(quot), np.signbit(np.floor_divide(x, y)))


def power(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] ** y[i]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_integer_power(jit, dtype):
    rng = np.random.default_rng(1)
    x = rng.integers(0, 12, N).astype(dtype)
    if np.issubdtype(dtype, np.signedinteger):
        x -= 6
    y = rng.integers(0, 9, N).astype(dtype)
    out = np.zeros(N, dtype=dtype)
    jit(power)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_array_equal(out, x ** y)


def test_integer_power_wraps(jit):
    x = np.array([3, 7, -5, 2, 2], dtype=np.int32)
    y = np.array([25, 13, 15, 31, 32], dtype=np.int32)
    out = np.zeros_like(x)
    jit(power)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out, x ** y)


def test_integer_power_negative_exponent(jit):
    x = np.array([2, 1, -1, -1, 5, 0], dtype=np.int64)
    y = np.array([-1, -3, -3, -2, 0, 0], dtype=np.int64)
    out = np.full(x.size, 99, dtype=np.int64)
    jit(power)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out, np.array([0, 1, -1, 1, 1, 1], dtype=np.int64))


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 1e-6), (np.float64, 1e-14)])
def test_float_power(jit, dtype, rtol):
    rng = np.random.default_rng(2)
    x = rng.uniform(0.1, 10.0, N).astype(dtype)
    y = rng.uniform(-3.0, 3.0, N).astype(dtype)
    out = np.zeros(N, dtype=dtype)
    jit(power)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_allclose(out, x ** y, rtol=rtol)


def power_literals(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] ** 2
        out[1, i] = x[i] ** 0.5
        out[2, i] = 2.0 ** x[i]
        out[3, i] = x[i] ** -1


def test_power_with_literal_operands(jit):
    x = np.linspace(0.5, 4.0, N).astype(np.float32)
    out = np.zeros((4, N), dtype=np.float32)
    jit(power_literals)[BLOCKS, THREADS](out, x)
    np.testing.assert_allclose(out[0], x ** 2, rtol=1e-6)
    np.testing.assert_allclose(out[1], x ** 0.5, rtol=1e-6)
    np.testing.assert_allclose(out[2], 2.0 ** x, rtol=1e-6)
    np.testing.assert_allclose(out[3], x ** -1, rtol=1e-6)


def unary_ops(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = -x[i]
        out[1, i] = +x[i]
        out[2, i] = ~x[i]
        out[3, i] = not x[i]
        out[4, i] = -(-x[i])


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint32])
def test_unary_operators_on_integers(jit, dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 100, info.max, info.min, info.max - 1], dtype=dtype)
    out = np.zeros((5, x.size), dtype=dtype)
    jit(unary_ops)[1, x.size](out, x)
    np.testing.assert_array_equal(out[0], -x)
    np.testing.assert_array_equal(out[1], +x)
    np.testing.assert_array_equal(out[2], ~x)
    np.testing.assert_array_equal(out[3], (x == 0).astype(dtype))
    np.testing.assert_array_equal(out[4], x)


def float_unary_ops(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = -x[i]
        out[1, i] = +x[i]
        out[2, i] = not x[i]


def test_unary_operators_on_floats(jit):
    x = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan], dtype=np.float64)
    out = np.zeros((3, x.size), dtype=np.float64)
    jit(float_unary_ops)[1, x.size](out, x)
    np.testing.assert_array_equal(out[0], -x)
    # PTX leaves the sign of a negated NaN unspecified: compare signs of numbers only.
    numbers = ~np.isnan(x)
    np.testing.assert_array_equal(np.signbit(out[0][numbers]), np.signbit(-x[numbers]))
    np.testing.assert_array_equal(out[1], x)
    np.testing.assert_array_equal(out[2], np.array([1, 1, 0, 0, 0, 0, 0], dtype=np.float64))


def precedence(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        out[0, i] = a + b * 3 - a / 4 ** 2
        out[1, i] = -a ** 2
        out[2, i] = (a + b) * (a - b)
        out[3, i] = a - b - 1 - b
        out[4, i] = 2 ** 3 ** 2 + a * 0
        out[5, i] = a * b % 7 + b // 3


def test_operator_precedence_and_associativity(jit):
    x, y = operands(np.float64)
    out = np.zeros((6, N), dtype=np.float64)
    jit(precedence)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_allclose(out[0], x + y * 3 - x / 4 ** 2, rtol=1e-15)
    np.testing.assert_allclose(out[1], -(x ** 2), rtol=1e-15)
    np.testing.assert_allclose(out[2], (x + y) * (x - y), rtol=1e-15)
    np.testing.assert_array_equal(out[3], ((x - y) - 1) - y)
    np.testing.assert_array_equal(out[4], np.full(N, 512.0))
    np.testing.assert_allclose(out[5], np.mod(x * y, 7) + np.floor_divide(y, 3), rtol=1e-15)


def scale_by_literal(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * 1.1


def test_float32_times_weak_literal_stays_float32(jit):
    x = np.random.default_rng(3).uniform(-10, 10, N).astype(np.float32)
    out = np.zeros(N, dtype=np.float64)
    jit(scale_by_literal)[BLOCKS, THREADS](out, x)
    expected = (x * np.float32(1.1)).astype(np.float64)
    np.testing.assert_array_equal(out, expected)


def add_weak_int(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] + 1


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16])
def test_small_int_plus_weak_literal_stays_small_and_wraps(jit, dtype):
    info = np.iinfo(dtype)
    x = np.array([info.max, info.min, 0, 5], dtype=dtype)
    out = np.zeros(x.size, dtype=np.int64)
    jit(add_weak_int)[1, x.size](out, x)
    np.testing.assert_array_equal(out, (x + dtype(1)).astype(np.int64))


def add_arrays(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] + y[i]


@pytest.mark.parametrize("xdtype, ydtype", [(np.uint8, np.int8), (np.int32, np.int64),
                                            (np.uint32, np.int32), (np.int16, np.uint16),
                                            (np.float32, np.int64), (np.float32, np.float64),
                                            (np.uint64, np.int64), (np.int8, np.float32),
                                            (np.float16, np.float32)])
def test_mixed_array_types_promote_like_numpy(jit, xdtype, ydtype):
    x = np.array([200, 100, 1, 127, 3], dtype=np.int64).astype(xdtype)
    y = np.array([100, 127, 16777217, -1, -128], dtype=np.int64).astype(ydtype)
    out = np.zeros(x.size, dtype=np.float64)
    jit(add_arrays)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out, (x + y).astype(np.float64))


def scale_by_scalar(out, x, a):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * a


@pytest.mark.parametrize("scalar", [np.float32(1.1), 1.1, np.float64(1.1), 3, np.int8(3)])
def test_array_times_scalar_argument(jit, scalar):
    x = np.random.default_rng(4).uniform(-10, 10, N).astype(np.float32)
    out = np.zeros(N, dtype=np.float64)
    jit(scale_by_scalar)[BLOCKS, THREADS](out, x, scalar)
    # A Python float argument is float64 (only literals in kernel code are weak).
    strong = np.float64(scalar) if type(scalar) is float else scalar
    if type(scalar) is int:
        strong = np.int64(scalar)
    np.testing.assert_array_equal(out, (x * strong).astype(np.float64))


def augmented_int(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        v = a
        v += b
        out[0, i] = v
        v -= 3 * b
        out[1, i] = v
        v *= b
        out[2, i] = v
        v //= 3
        out[3, i] = v
        v %= 5
        out[4, i] = v
        v = a
        v **= 2
        out[5, i] = v
        v &= 0x5A
        out[6, i] = v
        v |= 0x101
        out[7, i] = v
        v ^= b
        out[8, i] = v
        v <<= 3
        out[9, i] = v
        v >>= 2
        out[10, i] = v


def test_augmented_assignment_on_integers(jit):
    x, y = operands(np.int64)
    out = np.zeros((11, N), dtype=np.int64)
    jit(augmented_int)[BLOCKS, THREADS](out, x, y)
    v = x + y
    np.testing.assert_array_equal(out[0], v)
    v = v - 3 * y
    np.testing.assert_array_equal(out[1], v)
    v = v * y
    np.testing.assert_array_equal(out[2], v)
    v = v // 3
    np.testing.assert_array_equal(out[3], v)
    v = v % 5
    np.testing.assert_array_equal(out[4], v)
    v = x ** 2
    np.testing.assert_array_equal(out[5], v)
    v = v & 0x5A
    np.testing.assert_array_equal(out[6], v)
    v = v | 0x101
    np.testing.assert_array_equal(out[7], v)
    v = v ^ y
    np.testing.assert_array_equal(out[8], v)
    v = v << 3
    np.testing.assert_array_equal(out[9], v)
    v = v >> 2
    np.testing.assert_array_equal(out[10], v)


def augmented_float(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        v += y[i]
        out[0, i] = v
        v -= 0.5
        out[1, i] = v
        v *= y[i]
        out[2, i] = v
        v /= 3.0
        out[3, i] = v
        v //= 2.0
        out[4, i] = v
        v %= 7.0
        out[5, i] = v
        v **= 2
        out[6, i] = v


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_augmented_assignment_on_floats(jit, dtype):
    x, y = operands(dtype)
    out = np.zeros((7, N), dtype=dtype)
    jit(augmented_float)[BLOCKS, THREADS](out, x, y)
    v = x + y
    np.testing.assert_array_equal(out[0], v)
    v = v - dtype(0.5)
    np.testing.assert_array_equal(out[1], v)
    v = v * y
    np.testing.assert_array_equal(out[2], v)
    v = v / dtype(3.0)
    np.testing.assert_array_equal(out[3], v)
    v = np.floor_divide(v, dtype(2.0))
    np.testing.assert_array_equal(out[4], v)
    v = np.mod(v, dtype(7.0))
    np.testing.assert_array_equal(out[5], v)
    v = v ** 2
    np.testing.assert_allclose(out[6], v, rtol=1e-6)


def augmented_array_element(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] += x[i]
        out[i] *= 2
        out[i] -= 1
        out[i] //= 3
        out[i] %= 1000
        out[i] |= 1
        out[i] <<= 1


def test_augmented_assignment_on_array_elements(jit):
    x, _ = operands(np.int32)
    out = np.arange(N, dtype=np.int32)
    expected = out.copy()
    jit(augmented_array_element)[BLOCKS, THREADS](out, x)
    expected = (((((expected + x) * 2 - 1) // 3) % 1000) | 1) << 1
    np.testing.assert_array_equal(out, expected)


def chained_compare(out, x, lo, hi):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = lo < x[i] <= hi
        out[1, i] = lo <= x[i] < hi != x[i]
        out[2, i] = x[i] == x[i] > lo
        out[3, i] = 1 if lo < x[i] < hi else 2
        out[4, i] = x[i] if x[i] > 0 else -x[i]


def test_chained_comparisons_and_conditional_expression(jit):
    x = np.arange(-20, 20, dtype=np.int32)
    out = np.zeros((5, x.size), dtype=np.int32)
    jit(chained_compare)[1, x.size](out, x, -5, 7)
    np.testing.assert_array_equal(out[0], (-5 < x) & (x <= 7))
    np.testing.assert_array_equal(out[1], (-5 <= x) & (x < 7) & (x != 7))
    np.testing.assert_array_equal(out[2], x > -5)
    np.testing.assert_array_equal(out[3], np.where((-5 < x) & (x < 7), 1, 2))
    np.testing.assert_array_equal(out[4], np.abs(x))


def compare_ops(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] < y[i]
        out[1, i] = x[i] <= y[i]
        out[2, i] = x[i] > y[i]
        out[3, i] = x[i] >= y[i]
        out[4, i] = x[i] == y[i]
        out[5, i] = x[i] != y[i]


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.uint64, np.float32,
                                   np.float64])
def test_comparison_operators(jit, dtype):
    x, y = operands(dtype)
    x[::7] = y[::7]
    out = np.zeros((6, N), dtype=np.bool_)
    jit(compare_ops)[BLOCKS, THREADS](out, x, y)
    np.testing.assert_array_equal(out[0], x < y)
    np.testing.assert_array_equal(out[1], x <= y)
    np.testing.assert_array_equal(out[2], x > y)
    np.testing.assert_array_equal(out[3], x >= y)
    np.testing.assert_array_equal(out[4], x == y)
    np.testing.assert_array_equal(out[5], x != y)


def test_comparison_between_signed_and_unsigned(jit):
    x = np.array([-1, -128, 5, 127], dtype=np.int8)
    y = np.array([255, 0, 5, 128], dtype=np.uint8)
    out = np.zeros((6, x.size), dtype=np.bool_)
    jit(compare_ops)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out[0], x.astype(np.int64) < y.astype(np.int64))
    np.testing.assert_array_equal(out[4], x.astype(np.int64) == y.astype(np.int64))
