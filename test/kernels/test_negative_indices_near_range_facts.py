"""Negative indices where kaji IR's `ranges` pass (ir/src/IntegerRanges.cpp) decides the
wraparound of others: an index that may be negative must still wrap as Python's does, and one
the pass proves non-negative must read the same element. Each kernel mixes both around the
facts the pass uses (a grid index, a test `> 0` on the way in, loop counters counting up,
down through 0 and halving), and each is checked against numpy's indexing on every target."""

import numpy as np

import kaji


def around_a_guard(out, a):
    g = kaji.grid(1)  # launched as one thread: 0
    if g > 0:
        out[0] = a[g - 1]  # not taken
    else:
        out[0] = a[g - 1]  # g - 1 is -1: the last element
    out[1] = a[g - 2]


def counting_down_through_zero(out, a, start):
    k = 0
    i = start
    while i > -4:
        out[k] = a[i]  # start, ..., 0, -1, -2, -3
        k += 1
        i -= 1


def range_from_negative(out, a):
    k = 0
    for i in range(-3, 3):
        out[k] = a[i]
        k += 1


def halving_then_offset(out, a):
    step = 8
    k = 0
    while step > 0:
        out[k] = a[step - 5]  # 3, -1, -3, -4
        k += 1
        step //= 2


def grid_minus_offset(out, a):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = a[i - 2]  # threads 0 and 1 read a[-2] and a[-1]


def test_guarded_index_and_its_other_branch(jit):
    a = np.arange(10, dtype=np.int64) * 3
    out = np.zeros(2, np.int64)
    jit(around_a_guard)[1, 1](out, a)
    np.testing.assert_array_equal(out, [a[-1], a[-2]])


def test_counter_counting_down_through_zero(jit):
    a = np.arange(10, dtype=np.int64) * 7
    out = np.zeros(7, np.int64)
    jit(counting_down_through_zero)[1, 1](out, a, np.int64(3))
    np.testing.assert_array_equal(out, [a[i] for i in (3, 2, 1, 0, -1, -2, -3)])


def test_range_from_a_negative_start(jit):
    a = np.arange(10, dtype=np.float64) + 0.5
    out = np.zeros(6)
    jit(range_from_negative)[1, 1](out, a)
    np.testing.assert_array_equal(out, [a[i] for i in range(-3, 3)])


def test_halving_step_with_an_offset(jit):
    a = np.arange(10, dtype=np.int32) * 11
    out = np.zeros(4, np.int32)
    jit(halving_then_offset)[1, 1](out, a)
    np.testing.assert_array_equal(out, [a[3], a[-1], a[-3], a[-4]])


def test_grid_index_minus_an_offset(jit):
    a = np.arange(64, dtype=np.float32)
    out = np.zeros(40, np.float32)
    jit(grid_minus_offset)[2, 32](out, a)
    np.testing.assert_array_equal(out, [a[i - 2] for i in range(40)])
