"""Loops counting to an int64 limit (a Python int) run on the GPU with a 32-bit counter when
the limit fits in 31 bits and with a 64-bit one otherwise (codegen/llvm/src/
NarrowLoopCounters.h): each kernel against Python, with limits on both sides of 2**31, negative
ones, and counts left by a break, stored as int32 and as int64."""

import numpy as np
import pytest

LIMITS = [-3, 0, 1, 7, 2**31 - 2, 2**31 - 1, 2**31, 2**33, 2**62]
STOPS = np.array([0, 1, 5, 100, 3], dtype=np.int64)


def count_until(out, limit, stops):
    i = 0
    while i < stops.size:
        n = 0
        while n < limit:
            if n == stops[i]:
                break
            n += 1
        out[i] = n
        i += 1


def counted_sum(out, start, limit):
    total = 0
    count = 0
    for k in range(start, limit):
        total += k
        count += 1
    out[0] = total
    out[1] = count


def ranged_sum(out, start, limit, stop):
    total = 0
    last = -1
    for k in range(start, limit):
        if k >= stop:
            break
        total += k
        last = k
    out[0] = total
    out[1] = last


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("limit", LIMITS)
def test_a_count_to_an_int64_limit_is_pythons(jit, limit, dtype):
    expected = np.zeros(STOPS.size, dtype)
    count_until(expected, limit, STOPS)
    got = np.zeros(STOPS.size, dtype)
    jit(count_until)[1, 1](got, limit, STOPS)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("start", [0, 5, 2**31 - 3])
@pytest.mark.parametrize("limit", [0, 9, 2**31 + 4, 2**40])
def test_a_range_to_an_int64_limit_is_pythons(jit, start, limit):
    stop = start + 6
    expected = np.zeros(2, np.int64)
    ranged_sum(expected, start, limit, stop)
    got = np.zeros(2, np.int64)
    jit(ranged_sum)[1, 1](got, start, limit, stop)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("start, limit", [(0, 9), (5, 9), (-4, 3), (2**31 - 3, 2**31 + 2),
                                          (2**31 - 2, 2**31 - 1), (2**31 + 1, 2**31 + 4),
                                          (9, 5)])
def test_a_range_from_a_runtime_start_is_pythons(jit, start, limit):
    expected = np.zeros(2, np.int64)
    counted_sum(expected, start, limit)
    got = np.zeros(2, np.int64)
    jit(counted_sum)[1, 1](got, start, limit)
    np.testing.assert_array_equal(got, expected)
