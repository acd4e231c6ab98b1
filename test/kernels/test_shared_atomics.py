"""Block-shared memory with syncthreads (tree reductions, tiles, reversals) and atomic.add on
global memory from many threads (histograms, counters, returned old values)."""

import numpy as np
import pytest

import kaji
from kaji import cuda

THREADS = 128
TILE = 16


def block_sum_float32(partial, x):
    buf = kaji.shared.array(128, np.float32)
    tid = kaji.threadIdx.x
    i = kaji.grid(1)
    buf[tid] = x[i] if i < x.size else 0
    kaji.syncthreads()
    step = kaji.blockDim.x // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        kaji.syncthreads()
        step //= 2
    if tid == 0:
        partial[kaji.blockIdx.x] = buf[0]


def test_shared_memory_tree_reduction_float32(jit):
    x = np.random.default_rng(8).uniform(-1, 1, 1000).astype(np.float32)
    blocks = (x.size + THREADS - 1) // THREADS
    partial = np.zeros(blocks, dtype=np.float32)
    jit(block_sum_float32)[blocks, THREADS](partial, x)
    padded = np.zeros(blocks * THREADS, dtype=np.float64)
    padded[:x.size] = x
    np.testing.assert_allclose(partial, padded.reshape(blocks, THREADS).sum(axis=1),
                               rtol=1e-5, atol=1e-5)


def block_sum_int64(partial, x):
    buf = cuda.shared.array(THREADS, dtype=np.int64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = 0
    if i < x.size:
        buf[tid] = x[i]
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = buf[0]


def test_shared_memory_tree_reduction_numba_spelling(jit):
    x = np.random.default_rng(9).integers(-10 ** 12, 10 ** 12, 5000)
    blocks = (x.size + THREADS - 1) // THREADS
    partial = np.zeros(blocks, dtype=np.int64)
    jit(block_sum_int64)[blocks, THREADS](partial, x)
    padded = np.zeros(blocks * THREADS, dtype=np.int64)
    padded[:x.size] = x
    np.testing.assert_array_equal(partial, padded.reshape(blocks, THREADS).sum(axis=1))


def reverse_in_block(out, x):
    buf = kaji.shared.array(64, np.int32)
    tid = kaji.threadIdx.x
    base = kaji.blockIdx.x * 64
    buf[tid] = x[base + tid]
    kaji.syncthreads()
    out[base + tid] = buf[63 - tid]


def test_shared_memory_reversal_needs_the_barrier(jit):
    x = np.arange(64 * 10, dtype=np.int32)
    out = np.zeros_like(x)
    jit(reverse_in_block)[10, 64](out, x)
    np.testing.assert_array_equal(out, x.reshape(10, 64)[:, ::-1].ravel())


def tiled_transpose(out, x):
    tile = kaji.shared.array((TILE, TILE + 1), np.float64)
    tx = kaji.threadIdx.x
    ty = kaji.threadIdx.y
    bx = kaji.blockIdx.x * TILE
    by = kaji.blockIdx.y * TILE
    if bx + tx < x.shape[1] and by + ty < x.shape[0]:
        tile[ty, tx] = x[by + ty, bx + tx]
    kaji.syncthreads()
    if by + tx < out.shape[1] and bx + ty < out.shape[0]:
        out[bx + ty, by + tx] = tile[tx, ty]


def test_two_dimensional_shared_tile_transpose(jit):
    x = np.arange(50 * 70, dtype=np.float64).reshape(50, 70)
    out = np.zeros((70, 50))
    blocks = ((70 + TILE - 1) // TILE, (50 + TILE - 1) // TILE)
    jit(tiled_transpose)[blocks, (TILE, TILE)](out, x)
    np.testing.assert_array_equal(out, x.T)


def two_shared_arrays(out, x):
    a = kaji.shared.array(32, np.int32)
    b = kaji.shared.array(32, np.int32)
    tid = kaji.threadIdx.x
    a[tid] = x[tid]
    b[tid] = 2 * x[tid]
    kaji.syncthreads()
    out[tid] = a[31 - tid] + b[(tid + 1) % 32]


def test_distinct_shared_arrays_do_not_alias(jit):
    x = np.arange(32, dtype=np.int32) * 3
    out = np.zeros_like(x)
    jit(two_shared_arrays)[1, 32](out, x)
    np.testing.assert_array_equal(out, x[::-1] + 2 * np.roll(x, -1))


def histogram(hist, x):
    i = kaji.grid(1)
    if i < x.size:
        kaji.atomic.add(hist, x[i], 1)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_atomic_add_histogram(jit, dtype):
    x = np.random.default_rng(10).integers(0, 16, 20000).astype(np.int32)
    hist = np.zeros(16, dtype=dtype)
    jit(histogram)[(x.size + 255) // 256, 256](hist, x)
    np.testing.assert_array_equal(hist, np.bincount(x, minlength=16).astype(dtype))


def atomic_sum(total, x):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(total, 0, x[i])


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 1e-4), (np.float64, 1e-12)])
def test_atomic_add_floats(jit, dtype, rtol):
    x = np.random.default_rng(11).uniform(0, 1, 10000).astype(dtype)
    total = np.zeros(1, dtype=dtype)
    jit(atomic_sum)[(x.size + 255) // 256, 256](total, x)
    np.testing.assert_allclose(total[0], x.astype(np.float64).sum(), rtol=rtol)


def ticket(slots, counter):
    i = kaji.grid(1)
    if i < slots.size:
        old = kaji.atomic.add(counter, 0, 1)
        slots[old] = i + 1


def test_atomic_add_returns_old_value(jit):
    slots = np.zeros(3000, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    jit(ticket)[(3000 + 127) // 128, 128](slots, counter)
    np.testing.assert_array_equal(counter, [3000])
    np.testing.assert_array_equal(np.sort(slots), np.arange(1, 3001))


def histogram_2d(hist, x, y):
    i = kaji.grid(1)
    if i < x.size:
        kaji.atomic.add(hist, (x[i], y[i]), 1)


def test_atomic_add_with_tuple_index(jit):
    rng = np.random.default_rng(12)
    x = rng.integers(0, 4, 5000)
    y = rng.integers(0, 6, 5000)
    hist = np.zeros((4, 6), dtype=np.int32)
    jit(histogram_2d)[(5000 + 127) // 128, 128](hist, x, y)
    expected = np.zeros((4, 6), dtype=np.int32)
    np.add.at(expected, (x, y), 1)
    np.testing.assert_array_equal(hist, expected)


def shared_histogram(hist, x):
    local_hist = kaji.shared.array(8, np.int32)
    tid = kaji.threadIdx.x
    if tid < 8:
        local_hist[tid] = 0
    kaji.syncthreads()
    i = kaji.grid(1)
    if i < x.size:
        kaji.atomic.add(local_hist, x[i], 1)
    kaji.syncthreads()
    if tid < 8:
        kaji.atomic.add(hist, tid, local_hist[tid])


def test_atomic_add_on_shared_memory_then_global(jit):
    x = np.random.default_rng(13).integers(0, 8, 10000).astype(np.int16)
    hist = np.zeros(8, dtype=np.int32)
    jit(shared_histogram)[(x.size + 255) // 256, 256](hist, x)
    np.testing.assert_array_equal(hist, np.bincount(x, minlength=8))
