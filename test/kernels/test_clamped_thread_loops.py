"""Guards on a thread's index against numpy. On the cpu target a loop over a block's threads runs
only over the threads that pass a guard affine in the thread index (docs/cpu-backend.md,
"Threads that fail their guard are not visited"): the interval where each test holds is computed
before the loop. Each kernel here takes one of the ways that can go wrong: bounds on both sides,
an index that falls as the thread rises, equality, a guard written as a negated `or`, a guard
with a part that is not affine, unsigned and narrow indices, a guard that no thread or every
thread passes, an effect before the guard, and blocks that hold the array's edges in two
dimensions."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def interior(out, x, low, high):
    i = cuda.grid(1)
    if low <= i < high:
        out[i] = x[i] * 2.0 + 1.0


@pytest.mark.parametrize("low, high", [(0, 384), (1, 383), (37, 38), (200, 100), (-5, 384),
                                       (250, 300), (0, 0), (130, 250)])
def test_both_bounds(jit, low, high):
    # 384 threads, one per element.
    x = np.arange(384, dtype=np.float64)
    out = np.full(384, -1.0)
    jit(interior)[3, 128](out, x, low, high)
    expected = np.full(384, -1.0)
    inside = slice(max(low, 0), max(min(high, 384), max(low, 0)))
    expected[inside] = x[inside] * 2.0 + 1.0
    np.testing.assert_array_equal(out, expected)


def falling(out, x):
    # j falls as the thread index rises: the guard's interval is found from its upper end.
    i = cuda.grid(1)
    j = x.size - 1 - i
    if j >= 3 and j < x.size - 2:
        out[j] = x[j] + 0.5


def test_falling_index(jit):
    x = np.random.default_rng(1).random(100)
    out = np.zeros(100)
    jit(falling)[2, 64](out, x)
    expected = np.zeros(100)
    expected[3:98] = x[3:98] + 0.5
    np.testing.assert_array_equal(out, expected)


def one_thread(out, k):
    i = cuda.grid(1)
    if i == k:
        out[0] = i + 1


@pytest.mark.parametrize("k", [0, 63, 64, 130, 191, 192, -1])
def test_equality_picks_one_thread(jit, k):
    out = np.zeros(1, np.int64)
    jit(one_thread)[3, 64](out, k)
    assert out[0] == (k + 1 if 0 <= k < 192 else 0)


def negated_or(out, x):
    i = cuda.grid(1)
    if not (i < 2 or i >= x.size - 3):
        out[i] = -x[i]


def test_guard_as_negated_or(jit):
    x = np.random.default_rng(2).random(77)
    out = np.zeros(77)
    jit(negated_or)[2, 64](out, x)
    expected = np.zeros(77)
    expected[2:74] = -x[2:74]
    np.testing.assert_array_equal(out, expected)


def partly_affine(out, x):
    # `x[i] > 0.5` is no interval: it stays, tested for the threads inside `i < x.size`.
    i = cuda.grid(1)
    if i < x.size and x[i] > 0.5:
        out[i] = x[i]


def test_guard_with_a_part_that_is_not_affine(jit):
    x = np.random.default_rng(3).random(150)
    out = np.zeros(150)
    jit(partly_affine)[2, 128](out, x)
    np.testing.assert_array_equal(out, np.where(x > 0.5, x, 0.0))


def unsigned_bound(out, n):
    i = np.uint32(cuda.grid(1))
    if i < n:
        out[i] = i * np.uint32(3)


@pytest.mark.parametrize("n", [0, 1, 100, 128, 1000])
def test_unsigned_index(jit, n):
    out = np.zeros(128, np.uint32)
    jit(unsigned_bound)[2, 64](out, np.uint32(min(n, 128)))
    expected = np.zeros(128, np.uint32)
    expected[:min(n, 128)] = np.arange(min(n, 128), dtype=np.uint32) * 3
    np.testing.assert_array_equal(out, expected)


def narrow_index(out, low):
    i = np.int32(cuda.threadIdx.x) - np.int32(low)
    if i > np.int32(0) and i <= np.int32(10):
        out[i] = i


@pytest.mark.parametrize("low", [-20, 0, 5, 60, 200])
def test_int32_index_against_an_offset(jit, low):
    out = np.zeros(11, np.int32)
    jit(narrow_index)[1, 64](out, low)
    expected = np.zeros(11, np.int32)
    for t in range(64):
        if 0 < t - low <= 10:
            expected[t - low] = t - low
    np.testing.assert_array_equal(out, expected)


def count_before_guard(counts, out, n):
    # The atomic runs for every thread before the guard: no thread may be skipped.
    i = cuda.grid(1)
    cuda.atomic.add(counts, 0, 1)
    if i < n:
        out[i] = 1


def test_effect_before_the_guard_runs_for_every_thread(jit):
    counts = np.zeros(1, np.int64)
    out = np.zeros(200, np.int64)
    jit(count_before_guard)[4, 64](counts, out, 150)
    assert counts[0] == 256
    np.testing.assert_array_equal(out, np.r_[np.ones(150), np.zeros(50)])


def stencil(out, u):
    col, row = cuda.grid(2)
    if 0 < row < u.shape[0] - 1 and 0 < col < u.shape[1] - 1:
        out[row, col] = np.float32(0.25) * (u[row - 1, col] + u[row + 1, col] +
                                            u[row, col - 1] + u[row, col + 1])


@pytest.mark.parametrize("shape, block", [((50, 70), (32, 8)), ((9, 33), (16, 4)),
                                          ((3, 3), (32, 8)), ((2, 40), (8, 8)),
                                          ((65, 1), (32, 1))])
def test_stencil_edges(jit, shape, block):
    u = np.random.default_rng(shape[0]).random(shape, dtype=np.float32)
    out = np.full(shape, -1.0, np.float32)
    grid = ((shape[1] + block[0] - 1) // block[0], (shape[0] + block[1] - 1) // block[1])
    jit(stencil)[grid, block](out, u)
    expected = np.full(shape, -1.0, np.float32)
    expected[1:-1, 1:-1] = np.float32(0.25) * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                               u[1:-1, 2:])
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def out_of_range_inside_guard(out, x):
    # The guard admits one thread past the end: its access still reports.
    i = cuda.grid(1)
    if i <= x.size:
        out[i] = x[i]


def test_index_error_inside_the_guard_still_reports(jit):
    x = np.ones(100)
    out = np.zeros(101)
    with pytest.raises(IndexError, match="index 100 is out of bounds for axis 0 with size 100"):
        jit(out_of_range_inside_guard, boundscheck=True)[1, 128](out, x)
        kaji.synchronize()
