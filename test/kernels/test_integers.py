"""Integer semantics: wrap-around on overflow, division and modulo by zero (0, kaji's defined
result), MIN // -1, bitwise operators, shifts by any amount with Python's result, unsigned
arithmetic and comparisons, abs, module-level integer constants."""

import numpy as np
import pytest

import kaji

WRAPPING_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64]
BIG = 1099511627776
NEGATIVE_BIG = -4398046511104


def extremes(dtype):
    info = np.iinfo(dtype)
    values = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 3, info.max // 2,
              info.max // 2 + 1]
    if info.min < 0:
        values = values + [-1, -2, info.min // 2]
    return np.array(values, dtype=dtype)


def all_pairs(values):
    x, y = np.meshgrid(values, values)
    return x.ravel().copy(), y.ravel().copy()


def wrapping_ops(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] + y[i]
        out[1, i] = x[i] - y[i]
        out[2, i] = x[i] * y[i]
        out[3, i] = -x[i]


@pytest.mark.parametrize("dtype", WRAPPING_TYPES)
def test_overflow_wraps(jit, dtype):
    x, y = all_pairs(extremes(dtype))
    out = np.zeros((4, x.size), dtype=dtype)
    jit(wrapping_ops)[(x.size + 63) // 64, 64](out, x, y)
    np.testing.assert_array_equal(out[0], x + y)
    np.testing.assert_array_equal(out[1], x - y)
    np.testing.assert_array_equal(out[2], x * y)
    np.testing.assert_array_equal(out[3], -x)


def accumulate_wrapping(out, step, count):
    i = kaji.grid(1)
    if i < out.size:
        v = out[i]
        for _ in range(count):
            v += step
        out[i] = v


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint32])
def test_repeated_addition_wraps(jit, dtype):
    out = np.arange(16, dtype=dtype)
    step = dtype(101)
    jit(accumulate_wrapping)[1, 16](out, step, 1000)
    expected = (np.arange(16, dtype=np.int64) + 101 * 1000) % (1 << (8 * out.itemsize))
    expected = expected.astype(np.uint64).astype(dtype)
    np.testing.assert_array_equal(out, expected)


def divide_by(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] // y[i]
        out[1, i] = x[i] % y[i]


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint32,
                                   np.uint64])
def test_integer_division_by_zero_gives_zero(jit, dtype):
    x = extremes(dtype)
    y = np.zeros_like(x)
    out = np.full((2, x.size), 7, dtype=dtype)
    jit(divide_by)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out, np.zeros_like(out))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_min_floor_divided_by_minus_one_wraps(jit, dtype):
    info = np.iinfo(dtype)
    x = np.array([info.min, info.min, info.min + 1], dtype=dtype)
    y = np.array([-1, 1, -1], dtype=dtype)
    out = np.zeros((2, x.size), dtype=dtype)
    jit(divide_by)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out[0], np.array([info.min, info.min, info.max], dtype=dtype))
    np.testing.assert_array_equal(out[1], np.zeros(3, dtype=dtype))


def divide_by_literal_zero(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] // 0
        out[1, i] = x[i] % 0


def test_integer_division_by_literal_zero_gives_zero(jit):
    x = np.arange(-5, 5, dtype=np.int32)
    out = np.ones((2, x.size), dtype=np.int32)
    jit(divide_by_literal_zero)[1, x.size](out, x)
    np.testing.assert_array_equal(out, np.zeros_like(out))


def bitwise(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] & y[i]
        out[1, i] = x[i] | y[i]
        out[2, i] = x[i] ^ y[i]
        out[3, i] = ~x[i]
        out[4, i] = (x[i] & ~y[i]) | (~x[i] & y[i])


@pytest.mark.parametrize("dtype", WRAPPING_TYPES)
def test_bitwise_operators(jit, dtype):
    x, y = all_pairs(extremes(dtype))
    out = np.zeros((5, x.size), dtype=dtype)
    jit(bitwise)[(x.size + 63) // 64, 64](out, x, y)
    np.testing.assert_array_equal(out[0], x & y)
    np.testing.assert_array_equal(out[1], x | y)
    np.testing.assert_array_equal(out[2], x ^ y)
    np.testing.assert_array_equal(out[3], ~x)
    np.testing.assert_array_equal(out[4], x ^ y)


def bool_bitwise(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] & y[i]
        out[1, i] = x[i] | y[i]
        out[2, i] = x[i] ^ y[i]


def test_bitwise_operators_on_bool(jit):
    x = np.array([False, False, True, True])
    y = np.array([False, True, False, True])
    out = np.zeros((3, 4), dtype=np.bool_)
    jit(bool_bitwise)[1, 4](out, x, y)
    np.testing.assert_array_equal(out, np.array([x & y, x | y, x ^ y]))


def shifts(out, x, s):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] << s[i]
        out[1, i] = x[i] >> s[i]


def python_shift_reference(x, s, dtype):
    """Python's (unbounded) shift results, wrapped to `dtype`."""
    bits = 8 * np.dtype(dtype).itemsize
    left = []
    right = []
    for a, b in zip(x.tolist(), s.tolist()):
        left.append((a << b) % (1 << bits))
        right.append((a >> b) % (1 << bits))
    wrap = np.uint64 if bits == 64 else np.int64
    return (np.array(left, dtype=np.uint64).astype(wrap).astype(dtype),
            np.array(right, dtype=np.uint64).astype(wrap).astype(dtype))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint32,
                                   np.uint64])
def test_shifts_by_any_amount_give_python_result(jit, dtype):
    bits = 8 * np.dtype(dtype).itemsize
    info = np.iinfo(dtype)
    values = [1, 3, info.max, info.min, 0x55]
    if info.min < 0:
        values = values + [-1, -7, info.min + 1]
    amounts = list(range(0, bits + 3)) + [bits * 2, min(info.max, 127)]
    x, s = np.meshgrid(np.array(values, dtype=dtype), np.array(amounts, dtype=dtype))
    x = x.ravel().copy()
    s = s.ravel().copy()
    out = np.zeros((2, x.size), dtype=dtype)
    jit(shifts)[(x.size + 63) // 64, 64](out, x, s)
    left, right = python_shift_reference(x, s, dtype)
    np.testing.assert_array_equal(out[0], left)
    np.testing.assert_array_equal(out[1], right)


def shift_by_runtime_scalar(out, x, amount):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] << amount
        out[1, i] = x[i] >> amount


@pytest.mark.parametrize("amount", [0, 5, 31, 32, 40, 63, 64, 100])
def test_int32_shift_by_int64_scalar(jit, amount):
    x = np.array([1, -1, 12345, -12345, 2147483647, -2147483648], dtype=np.int32)
    out = np.zeros((2, x.size), dtype=np.int64)
    jit(shift_by_runtime_scalar)[1, x.size](out, x, amount)
    left = []
    right = []
    for a in x.tolist():
        left.append(((a << amount) + (1 << 63)) % (1 << 64) - (1 << 63))
        right.append(a >> amount)
    np.testing.assert_array_equal(out[0], np.array(left, dtype=np.int64))
    np.testing.assert_array_equal(out[1], np.array(right, dtype=np.int64))


def unsigned_ops(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] - y[i]
        out[1, i] = x[i] // y[i]
        out[2, i] = x[i] % y[i]
        out[3, i] = x[i] > y[i]
        out[4, i] = x[i] >> 1
        out[5, i] = max(x[i], y[i])


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_unsigned_arithmetic_uses_unsigned_order(jit, dtype):
    info = np.iinfo(dtype)
    x = np.array([0, 1, info.max, info.max - 5, info.max // 2 + 1, 7], dtype=dtype)
    y = np.array([1, 2, 3, info.max, 1, info.max // 2 + 3], dtype=dtype)
    out = np.zeros((6, x.size), dtype=dtype)
    jit(unsigned_ops)[1, x.size](out, x, y)
    np.testing.assert_array_equal(out[0], x - y)
    np.testing.assert_array_equal(out[1], x // y)
    np.testing.assert_array_equal(out[2], x % y)
    np.testing.assert_array_equal(out[3], (x > y).astype(dtype))
    np.testing.assert_array_equal(out[4], x >> dtype(1))
    np.testing.assert_array_equal(out[5], np.maximum(x, y))


def integer_abs(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = abs(x[i])


@pytest.mark.parametrize("dtype", WRAPPING_TYPES)
def test_abs_of_integers_wraps_at_min(jit, dtype):
    x = extremes(dtype)
    out = np.zeros_like(x)
    jit(integer_abs)[1, x.size](out, x)
    np.testing.assert_array_equal(out, np.abs(x))


def big_constants(out):
    i = kaji.grid(1)
    if i == 0:
        out[0] = BIG
        out[1] = NEGATIVE_BIG
        out[2] = BIG * 1024 + 1
        out[3] = 9223372036854775807
        out[4] = -9223372036854775807 - 1
        out[5] = 0xFFFFFFFF + 1
        out[6] = 0x7FFFFFFFFFFFFFFF + 1
        out[7] = 0o777 + 0b1011


def test_large_integer_constants_are_int64(jit):
    out = np.zeros(8, dtype=np.int64)
    jit(big_constants)[1, 1](out)
    expected = np.array([BIG, NEGATIVE_BIG, BIG * 1024 + 1, 9223372036854775807,
                         -9223372036854775808, 4294967296, -9223372036854775808, 511 + 11],
                        dtype=np.int64)
    np.testing.assert_array_equal(out, expected)


def int_index_arithmetic(out, n):
    i = kaji.grid(1)
    if i < n:
        out[i] = i * i - 3 * i + 7


def test_thread_index_arithmetic_is_int64(jit):
    n = 1000
    out = np.zeros(n, dtype=np.int64)
    jit(int_index_arithmetic)[8, 128](out, n)
    i = np.arange(n, dtype=np.int64)
    np.testing.assert_array_equal(out, i * i - 3 * i + 7)
