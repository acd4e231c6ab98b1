"""Array views inside kernels: slices (negative steps too), a[i] of an n-d array, rows of a
for loop over an n-d array, .T / transpose() / reshape() / view(dtype), .shape .strides .size
.ndim .dtype of views, views passed to device functions, and stores through views reaching
the array they look into. Each result is checked against numpy doing the same."""

import numpy as np
import pytest

import kaji


def slice_1d(out, a, start, stop, step):
    v = a[start:stop:step]
    out[0] = v.size
    for k in range(v.size):
        out[1 + k] = v[k]


SLICES = [(1, 5, 1), (0, 10, 2), (-3, 10, 1), (8, 1, -1), (9, -11, -3), (-1, -11, -1),
          (3, 3, 1), (5, 2, 1), (-100, 100, 4), (100, -100, -2), (2, 8, 7)]


@pytest.mark.parametrize("start,stop,step", SLICES)
def test_slice_1d_matches_python(jit, start, stop, step):
    a = np.arange(10, dtype=np.float64) * 1.5
    out = np.full(12, -1.0)
    jit(slice_1d)[1, 1](out, a, start, stop, step)
    expected = a[start:stop:step]
    assert out[0] == expected.size
    np.testing.assert_array_equal(out[1:1 + expected.size], expected)


def slice_forms(out, a):
    b = a[1:5]
    c = a[::-1]
    d = a[:3]
    e = a[7:]
    f = a[::3]
    out[0] = b[0] + b[3] * 10
    out[1] = c[0] + c[9] * 10
    out[2] = d[2] + d.size * 100
    out[3] = e[0] + e.size * 100
    out[4] = f[3] + f.size * 100


def test_slice_forms(jit):
    a = np.arange(10, dtype=np.int64)
    out = np.zeros(5, dtype=np.int64)
    jit(slice_forms)[1, 1](out, a)
    assert list(out) == [1 + 40, 9 + 0, 2 + 300, 7 + 300, 9 + 400]


def row_and_column(out, a, i, j):
    row = a[i]
    col = a[:, j]
    also_row = a[i, :]
    for k in range(row.size):
        out[0, k] = row[k] + also_row[k]
    for k in range(col.size):
        out[1, k] = col[k]
    out[2, 0] = row.ndim
    out[2, 1] = col.shape[0]
    out[2, 2] = col.strides[0]
    out[2, 3] = row.strides[0]


@pytest.mark.parametrize("i,j", [(0, 0), (2, 3), (-1, -2)])
def test_row_and_column_views(jit, i, j):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros((3, 4), dtype=np.float32)
    jit(row_and_column)[1, 1](out, a, i, j)
    np.testing.assert_array_equal(out[0], a[i] * 2)
    np.testing.assert_array_equal(out[1, :3], a[:, j])
    assert list(out[2]) == [1, 3, a[:, j].strides[0], a[i].strides[0]]


def strided_2d(out, a):
    v = a[:, ::2]
    w = a[::-1, 1:3]
    for r in range(v.shape[0]):
        for c in range(v.shape[1]):
            out[r, c] = v[r, c]
    for r in range(w.shape[0]):
        for c in range(w.shape[1]):
            out[r, 4 + c] = w[r, c]


def test_strided_2d_views(jit):
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    out = np.zeros((4, 6), dtype=np.int32)
    jit(strided_2d)[1, 1](out, a)
    np.testing.assert_array_equal(out[:, :3], a[:, ::2])
    np.testing.assert_array_equal(out[:, 4:6], a[::-1, 1:3])


def store_through_views(a):
    a[1][2] = 100
    row = a[2]
    row[0] = 200
    a[:, 3][0] = 300
    back = a[::-1]
    back[0, 1] = 400


def test_stores_through_views_reach_the_array(jit):
    a = np.zeros((3, 4), dtype=np.float64)
    jit(store_through_views)[1, 1](a)
    expected = np.zeros((3, 4))
    expected[1, 2], expected[2, 0], expected[0, 3], expected[2, 1] = 100, 200, 300, 400
    np.testing.assert_array_equal(a, expected)


def rows_of(out, a):
    n = 0
    for row in a:
        total = 0.0
        for x in row:
            total += x
        out[n] = total
        n += 1


def test_for_loop_over_2d_array_yields_rows(jit):
    a = np.arange(15, dtype=np.float64).reshape(5, 3)
    out = np.zeros(5)
    jit(rows_of)[1, 1](out, a)
    np.testing.assert_array_equal(out, a.sum(axis=1))


def planes_of(out, a):
    for k, plane in enumerate(a):
        for i, row in enumerate(plane):
            for j in range(row.size):
                out[k, i, j] = row[j] * 2


def test_for_loop_over_3d_array(jit):
    a = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    out = np.zeros_like(a)
    jit(planes_of)[1, 1](out, a)
    np.testing.assert_array_equal(out, a * 2)


def transposes(out, a):
    t = a.T
    u = a.transpose()
    w = a.transpose((1, 0))
    for r in range(t.shape[0]):
        for c in range(t.shape[1]):
            out[r, c] = t[r, c] + u[r, c] + w[r, c]


def test_transpose(jit):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.zeros((3, 2), dtype=np.float32)
    jit(transposes)[1, 1](out, a)
    np.testing.assert_array_equal(out, a.T * 3)


def transpose_3d(out, a):
    t = a.transpose(2, 0, 1)
    for i in range(t.shape[0]):
        for j in range(t.shape[1]):
            for k in range(t.shape[2]):
                out[i, j, k] = t[i, j, k]


def test_transpose_permutation(jit):
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    out = np.zeros((4, 2, 3), dtype=np.int16)
    jit(transpose_3d)[1, 1](out, a)
    np.testing.assert_array_equal(out, a.transpose(2, 0, 1))


def reshapes(out, a):
    m = a.reshape(3, 4)
    n = a.reshape((2, -1))
    for r in range(3):
        for c in range(4):
            out[r, c] = m[r, c]
    out[3, 0] = n.shape[1]
    out[3, 1] = n[1, 5]


def test_reshape_contiguous(jit):
    a = np.arange(12, dtype=np.float64)
    out = np.zeros((4, 4))
    jit(reshapes)[1, 1](out, a)
    np.testing.assert_array_equal(out[:3], a.reshape(3, 4))
    assert out[3, 0] == 6 and out[3, 1] == a.reshape(2, -1)[1, 5]


def view_bits(out, a):
    bits = a.view(np.uint32)
    for i in range(bits.size):
        out[i] = bits[i]


def test_view_same_size(jit):
    a = np.array([1.0, -2.5, np.inf], dtype=np.float32)
    out = np.zeros(3, dtype=np.uint32)
    jit(view_bits)[1, 1](out, a)
    np.testing.assert_array_equal(out, a.view(np.uint32))


def view_bytes(out, a):
    b = a.view(np.uint8)
    out[0] = b.shape[0]
    out[1] = b.shape[1]
    for i in range(b.shape[1]):
        out[2 + i] = b[1, i]


def test_view_smaller_dtype(jit):
    a = np.arange(6, dtype=np.uint16).reshape(2, 3) * 257 + 1
    out = np.zeros(8, dtype=np.int64)
    jit(view_bytes)[1, 1](out, a)
    b = a.view(np.uint8)
    assert out[0] == 2 and out[1] == 6
    np.testing.assert_array_equal(out[2:], b[1])


def dtype_of_view(out, a):
    scratch = kaji.local.array(4, a[1:].dtype)
    scratch[0] = a[1]
    out[0] = scratch[0]


def test_dtype_of_a_view(jit):
    a = np.array([1, 2], dtype=np.int16)
    out = np.zeros(1, dtype=np.int16)
    jit(dtype_of_view)[1, 1](out, a)
    assert out[0] == 2


@kaji.jit(device=True)
def total_of(v):
    s = 0.0
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            s += v[i, j]
    return s


def views_to_device_function(out, a):
    out[0] = total_of(a[1:, ::2])
    out[1] = total_of(a.T)
    out[2] = total_of(a)


def test_views_passed_to_device_functions(jit):
    a = np.arange(20, dtype=np.float64).reshape(4, 5)
    out = np.zeros(3)
    jit(views_to_device_function)[1, 1](out, a)
    np.testing.assert_array_equal(out, [a[1:, ::2].sum(), a.sum(), a.sum()])


def views_per_thread(out, a):
    i = kaji.grid(1)
    if i < a.shape[0]:
        row = a[i]
        out[i] = row[::-1][0]


def test_view_per_thread(jit):
    a = np.arange(256 * 3, dtype=np.float32).reshape(256, 3)
    out = np.zeros(256, dtype=np.float32)
    jit(views_per_thread)[2, 128](out, a)
    np.testing.assert_array_equal(out, a[:, -1])


def shared_view(out, a):
    s = kaji.shared.array((4, 8), np.float32)
    t = kaji.threadIdx.x
    s[t // 8, t % 8] = a[t]
    kaji.syncthreads()
    row = s[t // 8]
    out[t] = row[7 - t % 8]


def test_view_of_shared_array(jit):
    a = np.arange(32, dtype=np.float32)
    out = np.zeros(32, dtype=np.float32)
    jit(shared_view)[1, 32](out, a)
    np.testing.assert_array_equal(out, a.reshape(4, 8)[:, ::-1].ravel())


def view_of_device_array(out, a):
    v = a[2:6]
    for i in range(v.size):
        out[i] = v[i]


def test_view_of_device_array(jit, target):
    if target != kaji.default_target():
        pytest.skip("kaji.to_device makes arrays for the default target only")
    a = kaji.to_device(np.arange(8, dtype=np.int32))
    out = kaji.to_device(np.zeros(4, dtype=np.int32))
    jit(view_of_device_array)[1, 1](out, a)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(2, 6))


def index_of_view(out, a, i):
    out[0] = a[1:][i][0]


def test_out_of_range_view_index_raises_on_cpu(target):
    if target != "cpu":
        pytest.skip("the cpu target checks bounds")
    a = np.zeros((4, 2), dtype=np.float32)
    out = np.zeros(1, dtype=np.float32)
    kernel = kaji.jit(target="cpu")(index_of_view)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        kernel[1, 1](out, a, 3)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 3"):
        kernel[1, 1](out, a, -4)
    a[3, 0] = 5
    kernel[1, 1](out, a, -1)
    assert out[0] == 5


def view_per_iteration(out, a):
    for start in (1, 2):
        v = a[start:]
        out[start] = v[0]
    for k in range(2):
        w = a[k:]
        out[3 + k] = w[1]


def test_loop_bodies_bind_a_view_per_iteration(jit):
    a = np.arange(10, 20, dtype=np.int64)
    out = np.zeros(5, dtype=np.int64)
    jit(view_per_iteration)[1, 1](out, a)
    assert list(out) == [0, 11, 12, 11, 12]


def store_into_slices(a, b, row, column):
    a[1:3] = 7
    a[0, ::2] = -1.5
    b[:, 1:] = row
    b[:, :1] = column
    b[2, ::-1][:3] = row


def test_assignment_to_slices_broadcasts(jit):
    a = np.zeros((4, 4))
    b = np.zeros((3, 4), dtype=np.float32)
    row = np.arange(3, dtype=np.float32) + 1
    column = np.array([[10], [20], [30]], dtype=np.int32)
    jit(store_into_slices)[1, 1](a, b, row, column)
    expected_a = np.zeros((4, 4))
    expected_a[1:3] = 7
    expected_a[0, ::2] = -1.5
    expected_b = np.zeros((3, 4), dtype=np.float32)
    expected_b[:, 1:] = row
    expected_b[:, :1] = column
    expected_b[2, ::-1][:3] = row
    np.testing.assert_array_equal(a, expected_a)
    np.testing.assert_array_equal(b, expected_b)


def reshaped_by_argument(out, shape_out, a, shape):
    b = a.reshape(shape)
    shape_out[0] = b.shape[0]
    shape_out[1] = b.shape[1]
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            out[i * b.shape[1] + j] = b[i, j]


# A shape known only at launch, -1 among its extents: numpy's reshape is the reference.
@pytest.mark.parametrize("size, shape", [(12, (3, -1)), (12, (-1, 4)), (12, (3, 4)),
                                         (12, (-1, 12)), (0, (0, 5)), (0, (-1, 5)),
                                         (0, (5, -1))])
def test_reshape_to_a_shape_given_at_launch(jit, size, shape):
    a = np.arange(size, dtype=np.float64)
    expected = a.reshape(shape)
    out = np.full(max(size, 1), -7.0)
    shape_out = np.zeros(2, np.int64)
    jit(reshaped_by_argument)[1, 1](out, shape_out, a, shape)
    assert tuple(shape_out) == expected.shape
    np.testing.assert_array_equal(out[:size], expected.ravel())


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_real_and_imag_of_complex_arrays_are_views_of_their_parts(jit, dtype):
    @jit
    def parts(values, out):
        i = kaji.grid(1)
        if i < values.shape[1]:
            kaji.atomic.add(values.real, (0, i), 1)
            values.imag[1, i] = -values.imag[1, i]
            out[0, i] = values.real[1, i] + values.imag.shape[0] + values.real.strides[1]

    start = (np.arange(8) + np.arange(8) * 1j).astype(dtype).reshape(2, 4)
    values = start.copy()
    out = np.zeros((1, 4), dtype(0).real.dtype)
    parts[1, 4](values, out)
    expected = start.copy()
    expected.real[0] += 1
    expected.imag[1] = -expected.imag[1]
    np.testing.assert_array_equal(values, expected)
    np.testing.assert_array_equal(out[0], start.real[1] + 2 + start.real.strides[1])
