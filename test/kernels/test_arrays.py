"""Arrays: every element dtype, 1-, 2- and 3-D indexing, .shape .size .ndim .strides, negative
indices, non-contiguous views (steps, columns, transposes, F order), bool arrays, and
device arrays made with kaji.to_device / kaji.device_array."""

import numpy as np
import pytest

import kaji

ALL_TYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
             np.uint64, np.float16, np.float32, np.float64]


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.uniform(-1000, 1000, shape).astype(dtype)


def copy1d(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i]


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_copy_every_dtype(jit, dtype):
    x = sample(dtype, 1000)
    out = np.zeros_like(x)
    jit(copy1d)[8, 128](out, x)
    np.testing.assert_array_equal(out, x)


def reverse(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[-1 - i]


@pytest.mark.parametrize("dtype", ALL_TYPES)
def test_negative_indices_every_dtype(jit, dtype):
    x = sample(dtype, 1000, seed=1)
    out = np.zeros_like(x)
    jit(reverse)[8, 128](out, x)
    np.testing.assert_array_equal(out, x[::-1])


def fixed_negative_indices(out, x, m):
    i = kaji.grid(1)
    if i == 0:
        out[0] = x[-1]
        out[1] = x[-2]
        out[2] = x[-x.size]
        out[3] = m[-1, -1]
        out[4] = m[-2, 0]
        out[5] = m[1, -3]


def test_constant_negative_indices(jit):
    x = np.arange(10, dtype=np.int64)
    m = np.arange(20, dtype=np.int64).reshape(4, 5)
    out = np.zeros(6, dtype=np.int64)
    jit(fixed_negative_indices)[1, 1](out, x, m)
    np.testing.assert_array_equal(out, [x[-1], x[-2], x[0], m[-1, -1], m[-2, 0], m[1, -3]])


def scale2d(out, x):
    i, j = kaji.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j] * 2 + i - j


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.float32, np.float64])
def test_two_dimensional_indexing(jit, dtype):
    x = sample(dtype, (37, 45), seed=2)
    if np.issubdtype(dtype, np.integer):
        x //= 4
    out = np.zeros_like(x)
    jit(scale2d)[(5, 6), (8, 8)](out, x)
    i, j = np.indices(x.shape)
    expected = (x * 2 + i - j).astype(dtype)
    np.testing.assert_array_equal(out, expected)


def scale3d(out, x):
    i, j, k = kaji.grid(3)
    if i < x.shape[0] and j < x.shape[1] and k < x.shape[2]:
        out[i, j, k] = x[i, j, k] + 100 * i + 10 * j + k


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_three_dimensional_indexing(jit, dtype):
    x = sample(dtype, (7, 9, 11), seed=3)
    if np.issubdtype(dtype, np.integer):
        x //= 4
    out = np.zeros_like(x)
    jit(scale3d)[(2, 3, 3), (4, 4, 4)](out, x)
    i, j, k = np.indices(x.shape)
    np.testing.assert_array_equal(out, (x + 100 * i + 10 * j + k).astype(dtype))


def attributes1d(out, x):
    if kaji.grid(1) == 0:
        out[0] = x.size
        out[1] = x.ndim
        out[2] = x.shape[0]
        out[3] = x.strides[0]
        out[4] = len(x)


def attributes2d(out, x):
    if kaji.grid(1) == 0:
        out[0] = x.size
        out[1] = x.ndim
        out[2] = x.shape[0]
        out[3] = x.shape[1]
        out[4] = x.strides[0]
        out[5] = x.strides[1]
        out[6] = len(x)


def attributes3d(out, x):
    if kaji.grid(1) == 0:
        out[0] = x.size
        out[1] = x.ndim
        out[2] = x.shape[0]
        out[3] = x.shape[1]
        out[4] = x.shape[2]
        out[5] = x.strides[0]
        out[6] = x.strides[1]
        out[7] = x.strides[2]
        out[8] = len(x)


def test_attributes_of_one_dimensional_arrays(jit):
    for x in [np.zeros(17, dtype=np.float32), np.zeros(40, dtype=np.int16)[::3],
              np.zeros(5, dtype=np.float64)]:
        out = np.zeros(5, dtype=np.int64)
        jit(attributes1d)[1, 1](out, x)
        np.testing.assert_array_equal(out, [x.size, x.ndim, x.shape[0], x.strides[0], len(x)])


def test_attributes_of_two_dimensional_arrays(jit):
    base = np.zeros((6, 10), dtype=np.float64)
    for x in [base, np.asfortranarray(base), base[:, ::2], base.T, base[1:5, 2:9]]:
        out = np.zeros(7, dtype=np.int64)
        jit(attributes2d)[1, 1](out, x)
        expected = [x.size, x.ndim, x.shape[0], x.shape[1], x.strides[0], x.strides[1], len(x)]
        np.testing.assert_array_equal(out, expected)


def test_attributes_of_three_dimensional_arrays(jit):
    base = np.zeros((3, 4, 5), dtype=np.uint8)
    for x in [base, np.asfortranarray(base), base.transpose(2, 0, 1)]:
        out = np.zeros(9, dtype=np.int64)
        jit(attributes3d)[1, 1](out, x)
        expected = [x.size, x.ndim] + list(x.shape) + list(x.strides) + [len(x)]
        np.testing.assert_array_equal(out, expected)


def add1d(out, x, y):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def test_strided_views_as_inputs(jit):
    base = np.arange(3000, dtype=np.float32)
    x = base[::3]
    y = base[2000:1000:-1]
    out = np.zeros(1000, dtype=np.float32)
    jit(add1d)[8, 128](out, x, y)
    np.testing.assert_array_equal(out, x + y)


def test_strided_view_as_output(jit):
    base = np.zeros(2000, dtype=np.int32)
    x = np.arange(1000, dtype=np.int32)
    out = base[::2]
    jit(add1d)[8, 128](out, x, x)
    np.testing.assert_array_equal(base[::2], 2 * x)
    np.testing.assert_array_equal(base[1::2], np.zeros(1000, dtype=np.int32))


def test_column_and_row_of_a_matrix(jit):
    m = np.arange(40 * 30, dtype=np.float64).reshape(40, 30)
    column = m[:, 1]
    row = m[3, :]
    out = np.zeros(30, dtype=np.float64)
    jit(add1d)[1, 32](out, column[:30], row)
    np.testing.assert_array_equal(out, m[:30, 1] + m[3, :])


def transpose_into(out, x):
    i, j = kaji.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[j, i]


@pytest.mark.parametrize("order", ["C", "F"])
def test_transpose_of_c_and_f_arrays(jit, order):
    x = np.asarray(np.arange(33 * 21, dtype=np.int32).reshape(33, 21), order=order)
    out = np.zeros((21, 33), dtype=np.int32)
    jit(transpose_into)[(3, 5), (8, 8)](out, x)
    np.testing.assert_array_equal(out, x.T)


def copy2d(out, x):
    i, j = kaji.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j]


def test_transposed_view_and_fortran_output(jit):
    x = np.arange(24 * 17, dtype=np.float64).reshape(24, 17)
    out = np.zeros((17, 24), dtype=np.float64, order="F")
    jit(copy2d)[(3, 3), (8, 8)](out, x.T)
    np.testing.assert_array_equal(out, x.T)


def test_two_dimensional_strided_view(jit):
    x = np.arange(40 * 50, dtype=np.int64).reshape(40, 50)[::3, 1::4]
    out = np.zeros(x.shape, dtype=np.int64)
    jit(copy2d)[(2, 2), (8, 8)](out, x)
    np.testing.assert_array_equal(out, x)


def bool_logic(out, a, b):
    i = kaji.grid(1)
    if i < a.size:
        out[0, i] = a[i] and not b[i]
        out[1, i] = a[i] != b[i]
        out[2, i] = a[i] == b[i]
        if a[i]:
            out[3, i] = True
        else:
            out[3, i] = b[i]


def test_bool_arrays(jit):
    a = sample(np.bool_, 1000, seed=4)
    b = sample(np.bool_, 1000, seed=5)
    out = np.zeros((4, 1000), dtype=np.bool_)
    jit(bool_logic)[8, 128](out, a, b)
    np.testing.assert_array_equal(out, np.array([a & ~b, a != b, a == b, a | b]))


def read_modify_write(x):
    i = kaji.grid(1)
    if i < x.size:
        x[i] = x[i] * 3 + 1


def test_in_place_update(jit):
    x = np.arange(1000, dtype=np.int64)
    jit(read_modify_write)[8, 128](x)
    np.testing.assert_array_equal(x, np.arange(1000) * 3 + 1)


def index_from_array(out, x, idx):
    i = kaji.grid(1)
    if i < idx.size:
        out[i] = x[idx[i]]


@pytest.mark.parametrize("index_dtype", [np.int8, np.int32, np.uint16, np.int64, np.uint64])
def test_gather_with_index_arrays_of_any_integer_type(jit, index_dtype):
    x = np.arange(100, dtype=np.float32) * 1.5
    idx = (np.arange(500) * 37 % 100).astype(index_dtype)
    out = np.zeros(500, dtype=np.float32)
    jit(index_from_array)[4, 128](out, x, idx)
    np.testing.assert_array_equal(out, x[idx])


def test_uint64_values_above_int64_max_survive(jit):
    x = np.array([2 ** 64 - 1, 2 ** 63, 2 ** 63 + 12345, 1], dtype=np.uint64)
    out = np.zeros_like(x)
    jit(copy1d)[1, 4](out, x)
    np.testing.assert_array_equal(out, x)


def test_device_arrays(jit, target):
    if target != kaji.default_target():
        pytest.skip("kaji.to_device makes arrays for the default target only")
    x = np.arange(1000, dtype=np.float32)
    d_x = kaji.to_device(x)
    d_y = kaji.to_device(x * 2)
    d_out = kaji.device_array(1000, np.float32)
    jit(add1d)[8, 128](d_out, d_x, d_y)
    np.testing.assert_array_equal(d_out.copy_to_host(), x * 3)
    d_like = kaji.device_array_like(x)
    jit(add1d)[8, 128](d_like, d_out, d_x)
    np.testing.assert_array_equal(d_like.copy_to_host(), x * 4)


def test_device_arrays_two_dimensional(jit, target):
    if target != kaji.default_target():
        pytest.skip("kaji.to_device makes arrays for the default target only")
    x = np.arange(30 * 40, dtype=np.int32).reshape(30, 40)
    d_out = kaji.device_array((40, 30), np.int32)
    jit(transpose_into)[(5, 4), (8, 8)](d_out, kaji.to_device(x))
    np.testing.assert_array_equal(d_out.copy_to_host(), x.T)
