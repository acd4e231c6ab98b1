"""Conversions: int(), float(), bool(), numpy scalar constructors (np.float32(x),
np.int32(x), np.uint8(x), ...), implicit conversion on store, and int <-> float rounding."""

import numpy as np
import pytest

import kaji


def to_int(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = int(x[i])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_int_of_float_truncates_toward_zero(jit, dtype):
    x = np.array([0.0, -0.0, 0.5, -0.5, 1.999, -1.999, 2.5, -2.5, 1000.75, -1000.75, 3.0],
                 dtype=dtype)
    out = np.zeros(x.size, dtype=np.int64)
    jit(to_int)[1, x.size](out, x)
    np.testing.assert_array_equal(out, np.trunc(x).astype(np.int64))


def int_result_type(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = int(x[i]) // 2 + int(x[i]) % 3


def test_int_of_float_is_an_integer(jit):
    x = np.linspace(-20.5, 20.5, 64)
    out = np.zeros(64, dtype=np.int64)
    jit(int_result_type)[1, 64](out, x)
    expected = []
    for v in x.tolist():
        expected.append(int(v) // 2 + int(v) % 3)
    np.testing.assert_array_equal(out, expected)


def to_float(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = float(x[i]) / 4


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint64, np.bool_])
def test_float_of_integers(jit, dtype):
    if dtype == np.bool_:
        x = np.array([True, False, True])
    else:
        info = np.iinfo(dtype)
        x = np.array([0, 1, 3, info.max, info.min, info.max - 1], dtype=dtype)
    out = np.zeros(x.size, dtype=np.float64)
    jit(to_float)[1, x.size](out, x)
    np.testing.assert_array_equal(out, x.astype(np.float64) / 4)


def large_int_to_float(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = float(x[i])
        out[1, i] = np.float32(x[i])


def test_int64_to_float_rounds_to_nearest_even(jit):
    x = np.array([2 ** 53 + 1, 2 ** 53 + 3, 2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 53) - 1,
                  9223372036854775807], dtype=np.int64)
    out = np.zeros((2, x.size), dtype=np.float64)
    jit(large_int_to_float)[1, x.size](out, x)
    np.testing.assert_array_equal(out[0], x.astype(np.float64))
    np.testing.assert_array_equal(out[1], x.astype(np.float32).astype(np.float64))


def to_bool(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = bool(x[i])


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.int64, np.float32, np.float64])
def test_bool_of_numbers(jit, dtype):
    x = np.array([0, 1, 2, 100, 255], dtype=np.int64).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        x = np.array([0.0, -0.0, 0.5, np.nan, -np.inf], dtype=dtype)
    out = np.zeros(x.size, dtype=np.bool_)
    jit(to_bool)[1, x.size](out, x)
    np.testing.assert_array_equal(out, x != 0)


def numpy_float_constructors(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.float32(x[i])
        out[1, i] = np.float16(x[i])
        out[2, i] = np.float64(np.float32(x[i]))
        out[3, i] = np.float32(x[i]) * 3.0


def test_numpy_float_constructors_round(jit):
    x = np.random.default_rng(14).uniform(-100, 100, 500)
    out = np.zeros((4, x.size), dtype=np.float64)
    jit(numpy_float_constructors)[4, 128](out, x)
    f32 = x.astype(np.float32)
    np.testing.assert_array_equal(out[0], f32.astype(np.float64))
    np.testing.assert_array_equal(out[1], x.astype(np.float16).astype(np.float64))
    np.testing.assert_array_equal(out[2], f32.astype(np.float64))
    np.testing.assert_array_equal(out[3], (f32 * np.float32(3.0)).astype(np.float64))


def numpy_int_constructors(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.int8(x[i])
        out[1, i] = np.uint8(x[i])
        out[2, i] = np.int16(x[i])
        out[3, i] = np.uint16(x[i])
        out[4, i] = np.int32(x[i])
        out[5, i] = np.uint32(x[i])
        out[6, i] = np.int64(x[i])
        out[7, i] = np.uint64(x[i])


def test_numpy_integer_constructors_wrap(jit):
    x = np.array([0, 1, -1, 127, 128, 255, 256, 300, -129, 65535, 65536, -32769,
                  2 ** 31, 2 ** 32 + 5, -(2 ** 40) - 3, 9223372036854775807], dtype=np.int64)
    out = np.zeros((8, x.size), dtype=np.int64)
    jit(numpy_int_constructors)[1, x.size](out, x)
    targets = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
               np.uint64]
    for row, dtype in zip(out, targets):
        np.testing.assert_array_equal(row, x.astype(dtype).astype(np.int64))


def numpy_int_result_arithmetic(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.int8(x[i]) + np.int8(100)
        out[1, i] = np.uint8(x[i]) * 3
        out[2, i] = np.int32(x[i]) * np.int32(1000000)


def test_numpy_integer_constructors_give_that_type(jit):
    x = np.array([0, 50, 100, -100, 255, 1000], dtype=np.int64)
    out = np.zeros((3, x.size), dtype=np.int64)
    jit(numpy_int_result_arithmetic)[1, x.size](out, x)
    np.testing.assert_array_equal(out[0], (x.astype(np.int8) + np.int8(100)).astype(np.int64))
    np.testing.assert_array_equal(out[1], (x.astype(np.uint8) * 3).astype(np.int64))
    np.testing.assert_array_equal(out[2],
                                  (x.astype(np.int32) * np.int32(1000000)).astype(np.int64))


def float_to_int_constructors(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.int32(x[i])
        out[1, i] = np.int64(x[i])
        out[2, i] = np.uint8(x[i])


def test_numpy_integer_constructors_of_floats_truncate(jit):
    x = np.array([0.9, -0.9, 2.5, -2.5, 100.99, 200.5, 7.0], dtype=np.float64)
    out = np.zeros((3, x.size), dtype=np.int64)
    jit(float_to_int_constructors)[1, x.size](out, x)
    np.testing.assert_array_equal(out[0], np.trunc(x).astype(np.int64))
    np.testing.assert_array_equal(out[1], np.trunc(x).astype(np.int64))
    positive = x >= 0
    np.testing.assert_array_equal(out[2][positive], np.trunc(x[positive]).astype(np.int64))


def store(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i]


@pytest.mark.parametrize("src, dst", [(np.float64, np.float32), (np.float32, np.float16),
                                      (np.float64, np.int32), (np.float32, np.int64),
                                      (np.int64, np.int8), (np.int32, np.uint16),
                                      (np.int64, np.float32), (np.uint64, np.float64),
                                      (np.bool_, np.float32), (np.int32, np.bool_),
                                      (np.float64, np.bool_), (np.int8, np.uint64)])
def test_store_converts_to_the_element_type(jit, src, dst):
    values = [0.0, 1.0, 2.75, -3.5, 100.25, 127.0, 1e6 + 0.5, 16777217.0, 0.1]
    if np.issubdtype(dst, np.unsignedinteger):
        values = np.abs(values)
    x = np.array(values)
    if np.issubdtype(src, np.integer):
        x = x.astype(np.int64)
    x = x.astype(src)
    out = np.zeros(x.size, dtype=dst)
    jit(store)[1, x.size](out, x)
    np.testing.assert_array_equal(out, x.astype(dst))


def bool_arithmetic(out, a, b):
    i = kaji.grid(1)
    if i < a.size:
        out[0, i] = int(a[i]) + int(b[i])
        out[1, i] = int(a[i] and b[i])
        out[2, i] = float(a[i]) * 2.5
        out[3, i] = bool(int(a[i]) - int(b[i]))


def test_bool_conversions(jit):
    a = np.array([False, False, True, True])
    b = np.array([False, True, False, True])
    out = np.zeros((4, 4), dtype=np.float64)
    jit(bool_arithmetic)[1, 4](out, a, b)
    ai = a.astype(np.int64)
    bi = b.astype(np.int64)
    np.testing.assert_array_equal(out, np.array([ai + bi, ai & bi, ai * 2.5, ai != bi]))


def _float16_edge_values():
    """Every finite float16, the midpoints between neighbours (ties round to even) and points
    just beside them, subnormals, overflow to inf, ±0, ±inf and NaN, as float64."""
    halves = np.arange(0, 0x7c00, dtype=np.uint16).view(np.float16).astype(np.float64)
    midpoints = (halves[:-1] + halves[1:]) / 2
    beside = np.concatenate([np.nextafter(midpoints, -np.inf), np.nextafter(midpoints, np.inf)])
    special = np.array([65504.0, 65519.99, 65520.0, 1e6, 2.0**-25, 2.0**-26, 3 * 2.0**-26,
                        np.inf, np.nan, -0.0])
    values = np.concatenate([halves, midpoints, beside, special])
    return np.concatenate([values, -values])


@pytest.mark.parametrize("src", [np.float64, np.float32])
def test_float_to_float16_rounds_to_nearest_even(jit, src):
    x = _float16_edge_values().astype(src)
    out = np.zeros(x.size, dtype=np.float16)
    jit(store)[(x.size + 255) // 256, 256](out, x)
    expected = x.astype(np.float16)
    # A NaN stays a NaN; its payload is the hardware's (the GPU's cvt gives 0x7fff).
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(out), nan)
    np.testing.assert_array_equal(out[~nan].view(np.uint16), expected[~nan].view(np.uint16))


@pytest.mark.parametrize("dst", [np.float64, np.float32])
def test_float16_widens_exactly(jit, dst):
    x = np.arange(0, 1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    x = x[~np.isnan(x)]
    out = np.zeros(x.size, dtype=dst)
    jit(store)[(x.size + 255) // 256, 256](out, x)
    np.testing.assert_array_equal(out, x.astype(dst))



def float16_of(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = np.float16(x[i])


def float16_of_scaled(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.float16(x[i])
        out[1, i] = np.float16(-4611686018427387904 * x[i])


def _integers_around_float16_ties(kind):
    """Integers at, beside and between float16 neighbours (ties round to even), up to and past
    the overflow to inf at 65520, and the kind's extremes."""
    info = np.iinfo(kind)
    near = np.arange(2040, 2060).tolist() + np.arange(4090, 4110).tolist() + [
        65503, 65504, 65505, 65519, 65520, 65521, 65535, 65536, 2 ** 24 + 1, 2 ** 31 - 1]
    values = [0, 1, 3, info.max, info.max - 1, info.min, info.min + 1] + near + [-v for v in near]
    return np.array([v for v in values if info.min <= v <= info.max], dtype=kind)


@pytest.mark.parametrize("src", [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_numpy_float16_of_integers_rounds_once(jit, src):
    x = _integers_around_float16_ties(src)
    out = np.zeros(x.size, dtype=np.float16)
    jit(float16_of)[(x.size + 127) // 128, 128](out, x)
    with np.errstate(over="ignore"):
        expected = x.astype(np.float16)
    np.testing.assert_array_equal(out.view(np.uint16), expected.view(np.uint16))


def test_numpy_float16_of_float64_rounds_once(jit):
    # np.float16(-4611686018427387904 * x) of a float64 once gave -4.6e18 instead of -inf on
    # the cpu target (the differential test's f16-casts group).
    x = np.concatenate([_float16_edge_values(), [1.0, -1.0, 1e-14, 1.4e-14, 2.0 ** -62]])
    out = np.zeros((2, x.size), dtype=np.float16)
    jit(float16_of_scaled)[(x.size + 255) // 256, 256](out, x)
    with np.errstate(over="ignore"):
        expected = np.array([x.astype(np.float16), (-4611686018427387904 * x).astype(np.float16)])
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(out), nan)
    np.testing.assert_array_equal(out[~nan].view(np.uint16), expected[~nan].view(np.uint16))

def sin_of_int8(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = np.sin(x[i])


def test_ufunc_of_int8_is_float16(jit):
    x = np.arange(-128, 128, dtype=np.int8)
    out = np.zeros(x.size, dtype=np.float16)
    jit(sin_of_int8)[1, x.size](out, x)
    np.testing.assert_allclose(out, np.sin(x), rtol=1e-3)
