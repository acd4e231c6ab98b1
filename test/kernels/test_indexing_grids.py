"""Launch geometry: grid(1/2/3), gridsize(1/2/3), threadIdx/blockIdx/blockDim/gridDim on 1-,
2- and 3-D launches whose extents are not multiples of the block, launch configurations as
ints and tuples, and the Numba spelling (`from kaji import cuda`)."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def record_1d(out):
    i = kaji.grid(1)
    if i < out.shape[0]:
        out[i, 0] = kaji.threadIdx.x
        out[i, 1] = kaji.blockIdx.x
        out[i, 2] = kaji.blockDim.x
        out[i, 3] = kaji.gridDim.x
        out[i, 4] = kaji.gridsize(1)
        out[i, 5] = kaji.blockIdx.x * kaji.blockDim.x + kaji.threadIdx.x


@pytest.mark.parametrize("n, blocks, threads", [(1000, 8, 128), (1, 1, 1), (100, 1, 100),
                                                (333, 11, 32), (97, 4, 25)])
def test_one_dimensional_indices(jit, n, blocks, threads):
    out = np.full((n, 6), -1, dtype=np.int64)
    jit(record_1d)[blocks, threads](out)
    i = np.arange(n)
    expected = np.stack([i % threads, i // threads, np.full(n, threads), np.full(n, blocks),
                         np.full(n, blocks * threads), i], axis=1)
    np.testing.assert_array_equal(out, expected)


def record_2d(out):
    x, y = kaji.grid(2)
    if x < out.shape[0] and y < out.shape[1]:
        out[x, y, 0] = kaji.threadIdx.x
        out[x, y, 1] = kaji.threadIdx.y
        out[x, y, 2] = kaji.blockIdx.x
        out[x, y, 3] = kaji.blockIdx.y
        out[x, y, 4] = kaji.blockDim.x
        out[x, y, 5] = kaji.blockDim.y
        out[x, y, 6] = kaji.gridDim.x
        out[x, y, 7] = kaji.gridDim.y
        w, h = kaji.gridsize(2)
        out[x, y, 8] = w
        out[x, y, 9] = h


def test_two_dimensional_indices(jit):
    shape = (45, 29)
    blocks = (6, 4)
    threads = (8, 8)
    out = np.full(shape + (10,), -1, dtype=np.int32)
    jit(record_2d)[blocks, threads](out)
    x, y = np.indices(shape)
    expected = np.stack([x % 8, y % 8, x // 8, y // 8, np.full(shape, 8), np.full(shape, 8),
                         np.full(shape, 6), np.full(shape, 4), np.full(shape, 48),
                         np.full(shape, 32)], axis=2)
    np.testing.assert_array_equal(out, expected)


def record_3d(out):
    x, y, z = kaji.grid(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z, 0] = kaji.threadIdx.x
        out[x, y, z, 1] = kaji.threadIdx.y
        out[x, y, z, 2] = kaji.threadIdx.z
        out[x, y, z, 3] = kaji.blockIdx.x
        out[x, y, z, 4] = kaji.blockIdx.y
        out[x, y, z, 5] = kaji.blockIdx.z
        out[x, y, z, 6] = kaji.blockDim.z
        out[x, y, z, 7] = kaji.gridDim.z
        sx, sy, sz = kaji.gridsize(3)
        out[x, y, z, 8] = sx * 10000 + sy * 100 + sz


def test_three_dimensional_indices(jit):
    shape = (9, 7, 10)
    blocks = (3, 2, 4)
    threads = (4, 5, 3)
    out = np.full(shape + (9,), -1, dtype=np.int64)
    jit(record_3d)[blocks, threads](out)
    x, y, z = np.indices(shape)
    expected = np.stack([x % 4, y % 5, z % 3, x // 4, y // 5, z // 3, np.full(shape, 3),
                         np.full(shape, 4), np.full(shape, 12 * 10000 + 10 * 100 + 12)],
                        axis=3)
    np.testing.assert_array_equal(out, expected)


def grid_stride_1d(out, x):
    start = kaji.grid(1)
    stride = kaji.gridsize(1)
    for i in range(start, x.size, stride):
        out[i] = x[i] + 1


@pytest.mark.parametrize("blocks, threads", [(1, 1), (2, 32), (3, 100), (64, 128)])
def test_grid_stride_loop(jit, blocks, threads):
    x = np.arange(5000, dtype=np.int32)
    out = np.zeros_like(x)
    jit(grid_stride_1d)[blocks, threads](out, x)
    np.testing.assert_array_equal(out, x + 1)


def grid_stride_2d(out):
    x0, y0 = kaji.grid(2)
    sx, sy = kaji.gridsize(2)
    for x in range(x0, out.shape[0], sx):
        for y in range(y0, out.shape[1], sy):
            out[x, y] += x * 1000 + y


def test_two_dimensional_grid_stride_loop_visits_each_element_once(jit):
    out = np.zeros((70, 55), dtype=np.int64)
    jit(grid_stride_2d)[(2, 3), (8, 4)](out)
    x, y = np.indices(out.shape)
    np.testing.assert_array_equal(out, x * 1000 + y)


def fill_1d(out):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = i


@pytest.mark.parametrize("config", [(4, 256), ((4,), (256,)), ((4, 1), (256, 1)),
                                    ((4, 1, 1), (256, 1, 1))])
def test_launch_configuration_ints_and_tuples(jit, config):
    out = np.full(1000, -1, dtype=np.int64)
    blocks, threads = config
    jit(fill_1d)[blocks, threads](out)
    np.testing.assert_array_equal(out, np.arange(1000))


def test_more_threads_than_elements_write_nothing_extra(jit):
    base = np.full(1100, -1, dtype=np.int64)
    out = base[:1000]
    jit(fill_1d)[9, 128](out)
    np.testing.assert_array_equal(base[:1000], np.arange(1000))
    np.testing.assert_array_equal(base[1000:], np.full(100, -1))


def numba_spelling(out, x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i] * cuda.blockDim.x + cuda.threadIdx.x - cuda.blockIdx.x + cuda.gridDim.x


def test_numba_spelling(target):
    x = np.arange(1000, dtype=np.int64)
    out = np.zeros_like(x)
    kernel = cuda.jit(target=target)(numba_spelling)
    kernel[8, 128](out, x)
    i = np.arange(1000)
    np.testing.assert_array_equal(out, x * 128 + i % 128 - i // 128 + 8)


def numba_spelling_2d(out):
    x, y = cuda.grid(2)
    w, h = cuda.gridsize(2)
    if x < out.shape[0] and y < out.shape[1]:
        out[x, y] = (w * h) * 0 + cuda.threadIdx.y * 100 + cuda.blockIdx.y


def test_numba_spelling_two_dimensional(target):
    out = np.zeros((20, 30), dtype=np.int32)
    cuda.jit(target=target)(numba_spelling_2d)[(2, 4), (16, 8)](out)
    _, y = np.indices(out.shape)
    np.testing.assert_array_equal(out, (y % 8) * 100 + y // 8)


def thread_in_block_sum(out):
    i = kaji.grid(1)
    if i < out.size:
        tx = kaji.threadIdx.x
        out[i] = tx + tx * kaji.blockDim.x


def test_thread_index_types_combine_with_int64(jit):
    out = np.zeros(300, dtype=np.int64)
    jit(thread_in_block_sum)[3, 100](out)
    tx = np.arange(300) % 100
    np.testing.assert_array_equal(out, tx + tx * 100)


def index_mismatches(errors):
    i = cuda.grid(1)
    written_out = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i != written_out or i < 0:
        cuda.atomic.add(errors, 0, 1)
    if cuda.gridsize(1) != cuda.blockDim.x * cuda.gridDim.x:
        cuda.atomic.add(errors, 1, 1)
    if i == 0:
        errors[2] = cuda.gridsize(1)


def test_indices_past_two_to_the_32_threads(jit, target):
    # Numba's own test: grid(1) and the index written out agree, in 64 bits, on a grid of more
    # than 2**32 threads (on a GPU in milliseconds; on the cpu target it would take an hour).
    if target == "cpu":
        pytest.skip("2**32 threads are for a GPU")
    errors = np.zeros(3, dtype=np.int64)
    blocks, threads = 2 ** 22 + 1, 1024
    jit(index_mismatches)[blocks, threads](errors)
    assert errors[0] == 0 and errors[1] == 0
    assert errors[2] == blocks * threads
