"""Kernels whose threads meet at syncthreads(), against numpy. On the cpu target such a kernel
runs as loops over the block's threads between its barriers (docs/cpu-backend.md, "Barriers as
loops over threads"): every value a thread keeps across a barrier (loop counters, local arrays,
booleans, complex numbers, an accumulator) must come back as that thread left it, threads that
return early must not hold the others up, barriers in device functions and in nested loops must
separate what they separate, and a kernel with more barriers than the regions take runs on
fibers with the same results."""

import numpy as np
import pytest

from kaji import cuda

THREADS = 64
TILE = 8


def block_sums(out, x):
    tile = cuda.shared.array(THREADS, np.int64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if t < step:
            tile[t] += tile[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = tile[0]


def tiled_matmul(c, a, b):
    tile_a = cuda.shared.array((TILE, TILE), np.float64)
    tile_b = cuda.shared.array((TILE, TILE), np.float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + tx
    row = cuda.blockIdx.y * TILE + ty
    acc = 0.0
    for t in range(a.shape[1] // TILE):
        tile_a[ty, tx] = a[row, t * TILE + tx]
        tile_b[ty, tx] = b[t * TILE + ty, col]
        cuda.syncthreads()
        for k in range(TILE):
            acc += tile_a[ty, k] * tile_b[k, tx]
        cuda.syncthreads()
    c[row, col] = acc


def next_in_block(out, x):
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= x.size:
        return
    tile[t] = x[i]
    cuda.syncthreads()
    if t + 1 < cuda.blockDim.x and i + 1 < x.size:
        out[i] = tile[t + 1]
    else:
        out[i] = -1.0


def keep_across_barriers(out, x):
    i = cuda.grid(1)
    local = cuda.local.array(4, np.float64)
    for k in range(4):
        local[k] = x[i] * (k + 1)
    flag = x[i] > 0.5
    z = complex(x[i], -x[i])
    n = i * 3
    cuda.syncthreads()
    total = 0.0
    for k in range(4):
        total += local[k]
    cuda.syncthreads()
    out[i] = total + (1.0 if flag else 0.0) + z.imag + n


@cuda.jit(device=True)
def rotate(tile, t, value):
    tile[t] = value
    cuda.syncthreads()
    turned = tile[(t + 1) % cuda.blockDim.x]
    cuda.syncthreads()
    return turned


def rotate_twice(out, x):
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    value = rotate(tile, t, x[i])
    out[i] = rotate(tile, t, value)


def rotate_nine_times(out, x):
    # 18 barriers once inlined: more than the cpu target cuts into regions.
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = x[i]
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    v = rotate(tile, t, v)
    out[i] = v


def nested_rounds(out, x, rounds):
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    acc = x[i]
    for r in range(rounds):
        for s in range(2):
            tile[t] = acc
            cuda.syncthreads()
            acc += tile[(t + 1 + s) % THREADS] * 0.5
            cuda.syncthreads()
        if cuda.blockIdx.x % 2 == 1:
            acc -= 1.0
    out[i] = acc


def split_barriers(out, x):
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if t % 2 == 0:
        tile[t] = x[i] * 2.0
        cuda.syncthreads()
    else:
        tile[t] = x[i] * 3.0
        cuda.syncthreads()
    out[i] = tile[(t + 1) % THREADS]


def read_past_the_end(out, x):
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = x[i]
    cuda.syncthreads()
    j = i
    if i == 69:
        j = x.size + 3
    out[i] = tile[(t + 1) % THREADS] + x[j]


def chosen_before_a_barrier(out, x):
    # `count` and `k` look alike in every thread, but which value a thread has depends on
    # where it went: they must stay the thread's own across the barrier.
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if t < 10:
        count = 5
    else:
        count = 7
    k = 0
    while k < t % 4:
        k += 1
    tile[t] = x[i]
    cuda.syncthreads()
    out[i] = tile[(t + 1) % THREADS] + count * 10 + k


def counted_with_and_without_barriers(out, x):
    # `v` is the same in every thread; after the `if` it comes either from this round (r even)
    # or from before the barrier (r odd).
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = 0.0
    total = 0.0
    for r in range(4):
        v += 1.0
        tile[t] = x[i] + v
        if r % 2 == 1:
            cuda.syncthreads()
        total += v * 100.0 + tile[t]
        cuda.syncthreads()
    out[i] = total


def uneven_barriers(out, rounds):
    # Threads below 10 pass two more barriers per round than the others: the loop counter is the
    # same expression in every thread, but not the same value at the same barrier.
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    total = 0
    for r in range(rounds):
        if t < 10:
            cuda.syncthreads()
            cuda.syncthreads()
        cuda.syncthreads()
        total += r
    out[i] = total


def aligned_local_across_barriers(out, rounds):
    # The loop counter is alike in every thread, the local array is each thread's own: both
    # live across the barrier, and the array keeps the alignment it asked for.
    local = cuda.local.array(3, np.int64, alignment=64)
    t = cuda.threadIdx.x
    for r in range(rounds):
        local[r % 3] = r * 100 + t
        cuda.syncthreads()
    out[t, 0] = local.ctypes.data % 64
    out[t, 1] = local[0] + local[1] + local[2]


def raise_before_a_barrier(out):
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    if t == 3:
        raise ValueError("thread three")
    tile[t] = t
    cuda.syncthreads()
    out[t] = tile[(t + 1) % THREADS]


def rounds_after_an_early_return(out, x, rounds):
    # The threads past the end return before the loop; the loop counter stays alike in those
    # that run it.
    tile = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= x.size:
        return
    acc = 0.0
    for r in range(rounds):
        tile[t] = x[i] + r
        cuda.syncthreads()
        if t + 1 < THREADS and i + 1 < x.size:
            acc += tile[t + 1] * (r + 1)
        cuda.syncthreads()
    out[i] = acc


def rotated_in_blocks(x, steps):
    return np.concatenate([np.roll(block, -steps) for block in x.reshape(-1, THREADS)])


@pytest.mark.parametrize("n", [1, THREADS, 1000])
def test_block_tree_reduction(jit, n):
    x = np.arange(1, n + 1, dtype=np.int64)
    blocks = (n + THREADS - 1) // THREADS
    out = np.zeros(blocks, np.int64)
    jit(block_sums)[blocks, THREADS](out, x)
    padded = np.zeros(blocks * THREADS, np.int64)
    padded[:n] = x
    np.testing.assert_array_equal(out, padded.reshape(blocks, THREADS).sum(axis=1))


def test_tiled_matmul(jit):
    rng = np.random.default_rng(1)
    a, b = rng.random((24, 40)), rng.random((40, 32))
    c = np.zeros((24, 32))
    jit(tiled_matmul)[(32 // TILE, 24 // TILE), (TILE, TILE)](c, a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-12)


def test_threads_that_return_before_a_barrier_do_not_hold_it(jit):
    x = np.random.default_rng(2).random(150)
    out = np.zeros_like(x)
    jit(next_in_block)[3, THREADS](out, x)
    expected = np.full_like(x, -1.0)
    for i in range(x.size):
        if (i % THREADS) + 1 < THREADS and i + 1 < x.size:
            expected[i] = x[i + 1]
    np.testing.assert_array_equal(out, expected)


def test_values_and_local_arrays_kept_across_barriers(jit):
    x = np.random.default_rng(3).random(2 * THREADS)
    out = np.zeros_like(x)
    jit(keep_across_barriers)[2, THREADS](out, x)
    i = np.arange(x.size)
    np.testing.assert_allclose(out, 10 * x + (x > 0.5) - x + 3 * i, rtol=1e-14)


def test_barriers_in_a_device_function(jit):
    x = np.random.default_rng(4).random(3 * THREADS)
    out = np.zeros_like(x)
    jit(rotate_twice)[3, THREADS](out, x)
    np.testing.assert_array_equal(out, rotated_in_blocks(x, 2))


def test_more_barriers_than_regions(jit):
    x = np.random.default_rng(5).random(2 * THREADS)
    out = np.zeros_like(x)
    jit(rotate_nine_times)[2, THREADS](out, x)
    np.testing.assert_array_equal(out, rotated_in_blocks(x, 9))


def test_barriers_in_nested_loops(jit):
    x = np.random.default_rng(6).random(4 * THREADS)
    out = np.zeros_like(x)
    rounds = 3
    jit(nested_rounds)[4, THREADS](out, x, np.int64(rounds))
    expected = x.reshape(-1, THREADS).copy()
    for _ in range(rounds):
        for s in range(2):
            expected = expected + np.roll(expected, -(1 + s), axis=1) * 0.5
        expected[1::2] -= 1.0
    np.testing.assert_allclose(out, expected.ravel(), rtol=1e-14)


def test_threads_at_different_barriers_on_the_cpu_target(jit, target):
    # CUDA leaves syncthreads() in code the block does not reach as one undefined; the cpu
    # target counts threads at any barrier, as its fibers do, so every thread's store is seen.
    if target != "cpu":
        pytest.skip("undefined on a GPU")
    x = np.random.default_rng(7).random(2 * THREADS)
    out = np.zeros_like(x)
    jit(split_barriers)[2, THREADS](out, x)
    scaled = np.where(np.arange(x.size) % 2 == 0, x * 2.0, x * 3.0)
    np.testing.assert_array_equal(out, rotated_in_blocks(scaled, 1))


def test_threads_that_pass_different_numbers_of_barriers_on_the_cpu_target(jit, target):
    if target != "cpu":
        pytest.skip("undefined on a GPU")
    out = np.zeros(THREADS, np.int64)
    jit(uneven_barriers)[1, THREADS](out, np.int64(5))
    np.testing.assert_array_equal(out, np.full(THREADS, 10))


def test_an_index_out_of_range_after_a_barrier_names_its_thread(jit):
    x = np.zeros(2 * THREADS)
    out = np.zeros_like(x)
    with pytest.raises(IndexError, match=r"tid=\[5, 0, 0\] ctaid=\[1, 0, 0\]: index 131 is out "
                                         r"of bounds for axis 0 with size 128"):
        jit(read_past_the_end, boundscheck=True)[2, THREADS](out, x)
        cuda.synchronize()


def test_values_that_differ_by_the_way_threads_went(jit):
    x = np.random.default_rng(8).random(2 * THREADS)
    out = np.zeros_like(x)
    jit(chosen_before_a_barrier)[2, THREADS](out, x)
    t = np.arange(x.size) % THREADS
    expected = rotated_in_blocks(x, 1) + np.where(t < 10, 50, 70) + t % 4
    np.testing.assert_array_equal(out, expected)


def test_a_value_from_this_round_or_from_before_a_barrier(jit):
    x = np.random.default_rng(9).random(2 * THREADS)
    out = np.zeros_like(x)
    jit(counted_with_and_without_barriers)[2, THREADS](out, x)
    expected = sum(v * 100.0 + x + v for v in (1.0, 2.0, 3.0, 4.0))
    np.testing.assert_allclose(out, expected, rtol=1e-14)


def test_an_aligned_local_array_kept_across_barriers(jit):
    out = np.full((THREADS, 2), -1, np.int64)
    jit(aligned_local_across_barriers)[1, THREADS](out, np.int64(5))
    t = np.arange(THREADS)
    np.testing.assert_array_equal(out[:, 0], 0)
    np.testing.assert_array_equal(out[:, 1], (200 + t) + (300 + t) + (400 + t))


def test_a_thread_that_raises_before_a_barrier_ends_there(jit):
    out = np.full(THREADS, -1.0)
    with pytest.raises(ValueError, match=r"tid=\[3, 0, 0\] ctaid=\[0, 0, 0\]: thread three"):
        jit(raise_before_a_barrier, debug=True)[1, THREADS](out)
        cuda.synchronize()


def test_rounds_after_an_early_return(jit):
    x = np.random.default_rng(10).random(150)
    out = np.zeros_like(x)
    rounds = 3
    jit(rounds_after_an_early_return)[3, THREADS](out, x, np.int64(rounds))
    i = np.arange(x.size)
    has_next = (i % THREADS + 1 < THREADS) & (i + 1 < x.size)
    following = np.append(x[1:], 0.0)
    expected = sum((following + r) * (r + 1) for r in range(rounds)) * has_next
    np.testing.assert_allclose(out, expected, rtol=1e-14)
