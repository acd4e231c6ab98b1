"""Kernels that tell their threads apart along x by the global index alone, against numpy. On the
cpu target such a kernel's threads of consecutive blocks of a grid row run as one loop over that
index (docs/cpu-backend.md, "Threads of a row of blocks run as one loop"): each spelling of the
index must read it, and each kernel that reads threadIdx.x, blockIdx.x or shared memory
otherwise must keep its own blocks. The grids here end rows in the middle of the workers'
chunks of blocks, leave partial blocks at the array's end and run several rows, planes and
grid-stride trips."""

import numpy as np
import pytest

from kaji import cuda


@cuda.jit(device=True)
def global_x():
    return cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x


# x * 4.0 - 1.0 rounds once with or without contraction (the GPU's default) into an FMA.
def by_grid(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 4.0 - 1.0


def thread_first(out, x):
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i < x.size:
        out[i] = x[i] * 4.0 - 1.0


def extent_first(out, x):
    i = cuda.blockDim.x * cuda.blockIdx.x + cuda.threadIdx.x
    if i < x.size:
        out[i] = x[i] * 4.0 - 1.0


def in_device_function(out, x):
    i = global_x()
    if i < x.size:
        out[i] = x[i] * 4.0 - 1.0


@pytest.mark.parametrize("kernel", [by_grid, thread_first, extent_first, in_device_function])
@pytest.mark.parametrize("n, threads", [(1, 32), (1000, 64), (4097, 128), (12345, 96),
                                        (100_003, 256)])
def test_spellings_of_the_global_index(jit, kernel, n, threads):
    x = np.random.default_rng(n).random(n)
    out = np.full(n, -7.0)
    jit(kernel)[(n + threads - 1) // threads, threads](out, x)
    np.testing.assert_array_equal(out, x * 4.0 - 1.0)


def stencil(out, u):
    col, row = cuda.grid(2)
    if 0 < row < u.shape[0] - 1 and 0 < col < u.shape[1] - 1:
        out[row, col] = 0.25 * (u[row - 1, col] + u[row + 1, col] + u[row, col - 1] +
                                u[row, col + 1])


@pytest.mark.parametrize("rows, cols, block", [(50, 70, (32, 8)), (129, 257, (32, 4)),
                                               (300, 33, (16, 16)), (7, 1000, (64, 2)),
                                               (513, 511, (8, 8))])
def test_stencil_on_rows_of_blocks(jit, rows, cols, block):
    u = np.random.default_rng(rows * cols).random((rows, cols))
    out = np.zeros_like(u)
    grid = ((cols + block[0] - 1) // block[0], (rows + block[1] - 1) // block[1])
    jit(stencil)[grid, block](out, u)
    expected = np.zeros_like(u)
    expected[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    np.testing.assert_array_equal(out, expected)


def coordinates(out):
    x, y, z = cuda.grid(3)
    if x < out.shape[2] and y < out.shape[1] and z < out.shape[0]:
        out[z, y, x] = x + 1000 * y + 1_000_000 * z


def test_three_dimensional_grid(jit):
    out = np.full((5, 6, 77), -1, dtype=np.int64)
    jit(coordinates)[(5, 3, 3), (16, 2, 2)](out)
    z, y, x = np.indices(out.shape)
    np.testing.assert_array_equal(out, x + 1000 * y + 1_000_000 * z)


def grid_stride(out, x):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = x[i] + 2.0


@pytest.mark.parametrize("blocks, threads", [(3, 64), (40, 128), (1000, 32)])
def test_grid_stride_loop(jit, blocks, threads):
    x = np.random.default_rng(blocks).random(20_011)
    out = np.zeros_like(x)
    jit(grid_stride)[blocks, threads](out, x)
    np.testing.assert_array_equal(out, x + 2.0)


def thread_and_block(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = cuda.threadIdx.x
        out[i, 1] = cuda.blockIdx.x
        out[i, 2] = i


def test_kernel_reading_its_coordinates(jit):
    out = np.full((1000, 3), -1, dtype=np.int64)
    jit(thread_and_block)[16, 64](out)
    i = np.arange(1000)
    np.testing.assert_array_equal(out, np.stack([i % 64, i // 64, i], axis=1))


def own_slot(out, x):
    # Shared memory without a barrier: each thread reads back its own slot, found from the
    # global index alone.
    slot = cuda.shared.array(128, np.float64)
    i = cuda.grid(1)
    if i < x.size:
        slot[i % 128] = x[i] * 2.0
        out[i] = slot[i % 128] + 1.0


def test_shared_memory_without_barrier(jit):
    x = np.random.default_rng(5).random(1000)
    out = np.zeros_like(x)
    jit(own_slot)[8, 128](out, x)
    np.testing.assert_array_equal(out, x * 2.0 + 1.0)


def narrow_sum(out, x):
    # The coordinates cast to int32 first.
    i = np.int32(cuda.threadIdx.x) + np.int32(cuda.blockIdx.x) * np.int32(cuda.blockDim.x)
    if i < x.size:
        out[i] = x[i] - 4.0


def test_global_index_of_int32_coordinates(jit):
    x = np.random.default_rng(6).random(3000)
    out = np.zeros_like(x)
    jit(narrow_sum)[24, 128](out, x)
    np.testing.assert_array_equal(out, x - 4.0)


def reads_past_end(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i + 3]


def test_index_error_names_the_thread(target):
    if target != "cpu":
        pytest.skip("the thread is named in the cpu target's report")
    import kaji

    x = np.zeros(100)
    out = np.zeros(100)
    with pytest.raises(IndexError, match=r"tid=\[33, 0, 0\] ctaid=\[1, 0, 0\]: index 100 is out "
                                         r"of bounds for axis 0 with size 100"):
        kaji.jit(target="cpu")(reads_past_end)[4, 64](out, x)


def count_visits(count):
    i = cuda.grid(1)
    if i < count.size:
        cuda.atomic.add(count, i, 1)


@pytest.mark.parametrize("n, threads", [(100_003, 256), (5000, 32), (777, 1)])
def test_each_thread_runs_once(jit, n, threads):
    # Runs end at the end of a worker's chunk of blocks as well as at the end of the row.
    count = np.zeros(n, dtype=np.int32)
    jit(count_visits)[(n + threads - 1) // threads, threads](count)
    np.testing.assert_array_equal(count, np.ones(n, dtype=np.int32))


def count_plane_visits(count):
    x, y = cuda.grid(2)
    if x < count.shape[1] and y < count.shape[0]:
        cuda.atomic.add(count, (y, x), 1)


def test_each_thread_of_a_grid_of_rows_runs_once(jit):
    count = np.zeros((301, 517), dtype=np.int32)
    jit(count_plane_visits)[(17, 38), (32, 8)](count)
    np.testing.assert_array_equal(count, np.ones_like(count))
