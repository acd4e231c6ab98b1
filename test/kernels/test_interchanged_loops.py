"""Loops inside a thread's body against numpy. On the cpu target such a loop runs around the loop
over a block's threads (docs/cpu-backend.md, "Loops inside the threads' loop"): iteration k of
every thread before iteration k + 1 of any, carried values and each thread's local arrays in
per-thread copies, trip counts that differ between threads (the last iterations then run for
the threads that have them). Each kernel here takes one of the ways that can go wrong: trip
counts in order of the thread index or in none, none at all, values leaving the loop, local
arrays, atomics, a loop left early, a loop that counts down."""

import functools
import math

import numpy as np
import pytest

from kaji import cuda


def grid_stride_partial_sums(partials, x):
    # Each thread's share of a grid-stride sum, two accumulators and a count.
    t = cuda.grid(1)
    total = 0.0
    squares = 0.0
    count = 0
    for i in range(t, x.size, cuda.gridsize(1)):
        total += x[i]
        squares += x[i] * x[i]
        count += 1
    partials[t, 0] = total
    partials[t, 1] = squares
    partials[t, 2] = count


def expected_partials(x, threads):
    return np.array([[x[t::threads].sum(), (x[t::threads] ** 2).sum(), x[t::threads].size]
                     for t in range(threads)])


@pytest.mark.parametrize("blocks, threads, n", [
    (2, 64, 128 * 5), (2, 64, 128 * 5 + 37), (3, 32, 50), (1, 256, 1), (4, 64, 0)])
def test_grid_stride_sums_with_equal_unequal_and_no_trips(jit, blocks, threads, n):
    x = np.random.default_rng(n).random(n)
    partials = np.full((blocks * threads, 3), -1.0)
    jit(grid_stride_partial_sums)[blocks, threads](partials, x)
    np.testing.assert_allclose(partials, expected_partials(x, blocks * threads), rtol=1e-13)


def trips_out_of_order(out, x):
    # Thread t runs t % 5 iterations: no order between the threads' trip counts.
    t = cuda.grid(1)
    if t < out.size:
        acc = 1.0
        for j in range(t % 5):
            acc = acc * x[j] + j
        out[t] = acc


def test_trip_counts_in_no_order(jit):
    x = np.random.default_rng(5).random(5)
    out = np.zeros(200)
    jit(trips_out_of_order)[4, 64](out, x)
    expected = [functools.reduce(lambda acc, j: acc * x[j] + j, range(t % 5), 1.0)
                for t in range(out.size)]
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def row_sums_and_last(out, last, a):
    # The same trip count for every thread; the counter's last value leaves the loop.
    i = cuda.grid(1)
    if i < a.shape[0]:
        total = 0.0
        j = -1
        for j in range(a.shape[1]):
            total += a[i, j] * (j + 1)
        out[i] = total
        last[i] = j


def test_row_sums_leave_the_loop_with_their_counter(jit):
    a = np.random.default_rng(7).random((100, 33))
    out, last = np.zeros(100), np.zeros(100, np.int64)
    jit(row_sums_and_last)[2, 64](out, last, a)
    np.testing.assert_allclose(out, (a * np.arange(1, 34)).sum(axis=1), rtol=1e-13)
    np.testing.assert_array_equal(last, 32)


def local_histograms(out, values, bins):
    # Each thread counts its grid-stride share into a local array of its own.
    t = cuda.grid(1)
    counts = cuda.local.array(8, np.int32)
    for b in range(8):
        counts[b] = 0
    for i in range(t, values.size, cuda.gridsize(1)):
        counts[values[i] % bins] += 1
    for b in range(8):
        out[t, b] = counts[b]


def test_local_arrays_stay_each_threads_own(jit):
    values = np.random.default_rng(3).integers(0, 1000, 3000)
    out = np.zeros((128, 8), np.int32)
    jit(local_histograms)[2, 64](out, values, 8)
    expected = np.array([np.bincount(values[t::128] % 8, minlength=8) for t in range(128)])
    np.testing.assert_array_equal(out, expected)


def atomic_histogram(hist, values):
    for i in range(cuda.grid(1), values.size, cuda.gridsize(1)):
        cuda.atomic.add(hist, values[i], 1)


def test_atomics_inside_the_loop(jit):
    values = np.random.default_rng(4).integers(0, 16, 10_001)
    hist = np.zeros(16, np.int64)
    jit(atomic_histogram)[3, 64](hist, values)
    np.testing.assert_array_equal(hist, np.bincount(values, minlength=16))


def first_above(out, a, limit):
    # A loop left early: it has two exits.
    i = cuda.grid(1)
    if i < a.shape[0]:
        found = -1
        for j in range(a.shape[1]):
            if a[i, j] > limit:
                found = j
                break
        out[i] = found


def test_loops_left_early(jit):
    a = np.random.default_rng(9).random((70, 40))
    out = np.zeros(70, np.int64)
    jit(first_above)[3, 32](out, a, 0.97)
    expected = [next((j for j in range(40) if a[i, j] > 0.97), -1) for i in range(70)]
    np.testing.assert_array_equal(out, expected)


def counted_down(out, x):
    # A loop that counts down from the thread's own start.
    t = cuda.grid(1)
    if t < out.size:
        acc = 0.0
        for j in range(t, -1, -3):
            acc = acc * 0.5 + x[j]
        out[t] = acc


def test_loops_that_count_down(jit):
    x = np.random.default_rng(11).random(100)
    out = np.zeros(100)
    jit(counted_down)[2, 64](out, x)
    expected = [functools.reduce(lambda acc, j: acc * 0.5 + x[j], range(t, -1, -3), 0.0)
                for t in range(100)]
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def norms_of_strided_rows(out, a, step):
    # The part before the loop computes values (a square root, a stride) the loop and the part
    # after read; some threads' loops run no iteration.
    t = cuda.grid(1)
    if t < out.size:
        scale = math.sqrt(t + 1.0)
        start = t * step
        total = 0.0
        for i in range(start, a.size, out.size * step):
            total += a[i] * scale
        out[t] = total + scale


def test_values_before_the_loop_reach_it_and_the_part_after(jit):
    a = np.random.default_rng(13).random(1000)
    out = np.zeros(96)
    jit(norms_of_strided_rows)[3, 32](out, a, np.int64(11))
    expected = []
    for t in range(96):
        scale = math.sqrt(t + 1.0)
        expected.append(sum(a[i] * scale for i in range(t * 11, 1000, 96 * 11)) + scale)
    np.testing.assert_allclose(out, expected, rtol=1e-13)


def out_of_range_in_the_loop(out, x):
    t = cuda.grid(1)
    total = 0.0
    for i in range(t, x.size + 1, cuda.gridsize(1)):
        total += x[i]
    out[t] = total


def test_an_index_error_inside_the_loop_names_its_thread(jit):
    # Only thread 8 of block 0 (of 64 threads in all) reaches index 200.
    x = np.arange(200.0)
    with pytest.raises(IndexError, match=r"tid=\[8, 0, 0\] ctaid=\[0, 0, 0\]: index 200 is out "
                                         r"of bounds for axis 0 with size 200"):
        jit(out_of_range_in_the_loop, boundscheck=True)[2, 32](np.zeros(64), x)
        cuda.synchronize()
