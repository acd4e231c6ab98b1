"""cuda.cg: a grid group's sync() waits for every thread of the grid (a cooperative launch),
size and thread_rank() count threads over the whole grid."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import cg


def rotate_through_the_grid(values, rounds):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = values.size
    for _ in range(rounds):
        mine = values[(i + 1) % n]
        g.sync()
        values[i] = mine
        g.sync()


@pytest.mark.parametrize("blocks, threads", [(1, 32), (4, 64), (8, 32)])
def test_grid_sync_orders_every_block(jit, blocks, threads):
    n = blocks * threads
    values = np.arange(n, dtype=np.int64)
    jit(rotate_through_the_grid)[blocks, threads](values, 5)
    np.testing.assert_array_equal(values, np.roll(np.arange(n), -5))


def grid_sum(values, total):
    g = cuda.cg.this_grid()
    i = g.thread_rank()
    if i == 0:
        total[0] = 0
    g.sync()
    cuda.atomic.add(total, 0, values[i])
    g.sync()
    values[i] = total[0]


def test_grid_sync_makes_atomics_of_every_block_visible(jit):
    values = np.arange(6 * 32, dtype=np.int64)
    total = np.full(1, 99, dtype=np.int64)
    jit(grid_sum)[6, 32](values, total)
    np.testing.assert_array_equal(values, np.full(6 * 32, np.arange(6 * 32).sum()))


def ranks(out, sizes):
    g = cuda.cg.this_grid()
    x, y = cuda.grid(2)
    width = cuda.gridDim.x * cuda.blockDim.x
    out[y * width + x] = g.thread_rank()
    sizes[y * width + x] = g.size


def test_size_and_thread_rank_count_over_the_whole_grid(jit):
    grid, block = (3, 2), (4, 8)
    count = 3 * 2 * 4 * 8
    out = np.full(count, -1, dtype=np.int64)
    sizes = np.zeros(count, dtype=np.int64)
    jit(ranks)[grid, block](out, sizes)
    np.testing.assert_array_equal(sizes, np.full(count, count))
    # thread_rank: the block's linear rank times the block's threads, plus the thread's rank.
    expected = np.empty(count, dtype=np.int64)
    for by in range(2):
        for bx in range(3):
            for ty in range(8):
                for tx in range(4):
                    x, y = bx * 4 + tx, by * 8 + ty
                    expected[y * 12 + x] = (by * 3 + bx) * 32 + ty * 4 + tx
    np.testing.assert_array_equal(out, expected)


def sync_only(values):
    cg.this_grid().sync()
    values[cuda.grid(1)] = 1


def test_cpu_grid_over_the_cooperative_limit_is_an_error():
    kernel = kaji.jit(target="cpu")(sync_only)
    values = np.zeros(129, dtype=np.int32)
    kernel[128, 1](values)
    assert kernel.max_cooperative_grid_blocks(1) == 128
    assert kernel.overloads[kernel.signatures[0]].max_cooperative_grid_blocks((1, 1)) == 128
    with pytest.raises(ValueError, match="at most 128 blocks .* this grid has 129"):
        kernel[129, 1](values)


def test_gpu_grid_over_the_cooperative_limit_is_an_error(target):
    if target != "cuda":
        pytest.skip("the GPU's cooperative limit")
    kernel = kaji.jit(sync_only)
    values = kaji.device_array(1 << 20, dtype=np.int32)
    kernel[1, 32](values)
    limit = kernel.max_cooperative_grid_blocks(32)
    assert limit >= 1
    kernel[limit, 32](values)
    with pytest.raises(ValueError, match="max_cooperative_grid_blocks"):
        kernel[limit + 1, 32](values)
