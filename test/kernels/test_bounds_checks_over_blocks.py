"""Bounds checks decided for a whole block at once: on the cpu target a loop's checks whose
outcome over the loop is computable before it (a block's range of stencil indices, a kernel
loop's range) are decided there, and only blocks or loops where some check may fail run the
checked copy. Here the failing index sits in an interior block, at an edge, only in the last
iteration of a kernel loop, or not at all with negative indices that wrap as Python's do;
every case must read what numpy's indexing reads, and every out-of-range index must raise
IndexError with its value, as on every target."""

import numpy as np
import pytest

import kaji


def shifted_stencil(out, u, di, dj):
    j, i = kaji.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = u[i + di - 1, j + dj] + u[i + di + 1, j + dj] + u[i + di, j + dj - 1]


def numpy_shifted_stencil(u, rows, cols, di, dj):
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return u[i + di - 1, j + dj] + u[i + di + 1, j + dj] + u[i + di, j + dj - 1]


def window_sums(out, a, width):
    i = kaji.grid(1)
    if i < out.size:
        total = 0.0
        for k in range(width):
            total += a[i + k]
        out[i] = total


def launch_stencil(jit, out, u, di, dj):
    rows, cols = out.shape
    jit(shifted_stencil, boundscheck=True)[((cols + 31) // 32, (rows + 7) // 8), (32, 8)](
        out, u, np.int64(di), np.int64(dj))
    kaji.synchronize()


@pytest.mark.parametrize("di, dj", [(1, 1), (0, 0), (1, 40)])
def test_in_range_and_wrapping_indices_read_what_numpy_reads(jit, di, dj):
    # (1, 1): every index in range; (0, 0): the first row and column read row -1 and
    # column -1, the array's last; (1, 40): columns past 40 wrap from the far end.
    u = np.random.default_rng(0).random((70, 130), dtype=np.float32)
    rows, cols = 64, 90
    out = np.zeros((rows, cols), np.float32)
    if dj + cols > u.shape[1]:
        dj -= u.shape[1]  # the same columns as negative indices
    launch_stencil(jit, out, u, di, dj)
    np.testing.assert_array_equal(out, numpy_shifted_stencil(u, rows, cols, di, dj))


@pytest.mark.parametrize("u_shape, di, dj, message", [
    ((70, 130), 7, 0, "index 7[01] is out of bounds for axis 0 with size 70"),
    ((66, 95), 1, 6, "index 95 is out of bounds for axis 1 with size 95"),
    ((70, 130), -70, 0, "index -71 is out of bounds for axis 0 with size 70"),
])
def test_an_index_out_of_range_anywhere_raises(jit, u_shape, di, dj, message):
    # The first case fails in the last rows' blocks, the second in the last columns' only,
    # the third in the first row only (the rest wrap).
    u = np.ones(u_shape, np.float32)
    out = np.zeros((64, 90), np.float32)
    with pytest.raises(IndexError, match=message):
        launch_stencil(jit, out, u, di, dj)


def test_a_kernel_loop_whose_last_iteration_is_out_of_range_raises(jit):
    a = np.arange(100, dtype=np.float64)
    out = np.zeros(90)
    kernel = jit(window_sums, boundscheck=True)
    kernel[3, 32](out, a, np.int64(10))
    kaji.synchronize()
    np.testing.assert_array_equal(out, [a[i:i + 10].sum() for i in range(90)])
    with pytest.raises(IndexError, match="index 100 is out of bounds for axis 0 with size 100"):
        kernel[3, 32](out, a, np.int64(12))
        kaji.synchronize()
