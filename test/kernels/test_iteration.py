"""for loops over arrays, tuples, enumerate() and zip() (of arrays, ranges and tuples),
literal_unroll over tuples of mixed types, with break, continue and else; each checked against
the same loop run by Python."""

import numpy as np
import pytest

import kaji


def array_sum(out, a):
    total = 0.0
    for x in a:
        total += x
    out[0] = total


def test_for_over_array(jit):
    a = np.arange(1, 11, dtype=np.float64) * 0.5
    out = np.zeros(1)
    jit(array_sum)[1, 1](out, a)
    assert out[0] == sum(a.tolist())


def tuple_loop(out, a):
    i = 0
    for v in (a[0], 2, 3.5, True):
        out[i] = v * 2
        i += 1


def test_for_over_mixed_tuple(jit):
    out = np.zeros(4)
    jit(tuple_loop)[1, 1](out, np.array([7.0]))
    np.testing.assert_array_equal(out, [v * 2 for v in (7.0, 2, 3.5, True)])


def unrolled_types(out):
    # Each copy of the body has its item's own type: 7 // 2 stays an integer division.
    i = 0
    for v in kaji.literal_unroll((7, 7.0, np.int8(7))):
        out[i] = v // 2 + v / 4
        i += 1


def test_literal_unroll_keeps_item_types(jit):
    out = np.zeros(3)
    jit(unrolled_types)[1, 1](out)
    np.testing.assert_array_equal(out, [v // 2 + v / 4 for v in (7, 7.0, np.int8(7))])


def enumerate_array(out, a, start):
    for i, x in enumerate(a):
        out[i] = x * 10 + i
    for i, x in enumerate(a, start):
        out[a.size + i - start] = x + i
    for i, x in enumerate(a, start=3):
        out[2 * a.size + i - 3] = i


def test_enumerate(jit):
    a = np.array([4, 5, 6, 7], dtype=np.int64)
    out = np.zeros(12, dtype=np.int64)
    jit(enumerate_array)[1, 1](out, a, 100)
    expected = ([x * 10 + i for i, x in enumerate(a)] + [x + i for i, x in enumerate(a, 100)] +
                [i for i, x in enumerate(a, start=3)])
    np.testing.assert_array_equal(out, expected)


def enumerate_tuple(out, t0, t1):
    tup = (t0, t1, 9)
    other = (1, 10, 100)
    for i, v in enumerate(tup):
        out[i] = v * other[i]  # the count is a constant: it indexes a tuple


def test_enumerate_tuple_count_is_constant(jit):
    out = np.zeros(3, dtype=np.int64)
    jit(enumerate_tuple)[1, 1](out, 3, 4)
    np.testing.assert_array_equal(out, [3, 40, 900])


def zip_forms(out, a, b):
    n = 0
    for x, y in zip(a, b):  # arrays of different lengths: the shorter wins
        out[n] = x * y
        n += 1
    for x, r in zip(a, range(10, 0, -3)):
        out[n] = x + r
        n += 1
    for t, x, r in zip((1, 2.5), a, range(100)):
        out[n] = t + x + r
        n += 1
    out[n] = -1


def python_zip_forms(a, b):
    out = [x * y for x, y in zip(a, b)]
    out += [x + r for x, r in zip(a, range(10, 0, -3))]
    out += [t + x + r for t, x, r in zip((1, 2.5), a, range(100))]
    return out + [-1]


def test_zip(jit):
    a = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    b = np.array([10.0, 20.0, 30.0])
    expected = python_zip_forms(a, b)
    out = np.zeros(len(expected))
    jit(zip_forms)[1, 1](out, a, b)
    np.testing.assert_array_equal(out, expected)


def zip_tuple_with_short_array(out, a):
    n = 0
    for t, x in zip((1, 2, 3, 4), a):
        out[n] = t * x
        n += 1
    else:
        out[n] = 99


@pytest.mark.parametrize("size", [0, 2, 4, 6])
def test_zip_tuple_and_array_stops_at_shorter(jit, size):
    a = np.arange(1, size + 1, dtype=np.int64)
    out = np.zeros(8, dtype=np.int64)
    jit(zip_tuple_with_short_array)[1, 1](out, a)
    expected = [t * x for t, x in zip((1, 2, 3, 4), a)] + [99]
    np.testing.assert_array_equal(out[:len(expected)], expected)


def break_continue_else(out, a, stop_at):
    n = 0
    for x in a:
        if x == stop_at:
            break
        if x % 2 == 0:
            continue
        out[n] = x
        n += 1
    else:
        out[n] = -1
        n += 1
    for v in (1, 2, 3, 4):
        if v == stop_at:
            break
        if v == 2:
            continue
        out[n] = v * 100
        n += 1
    else:
        out[n] = -2


def python_break_continue_else(a, stop_at):
    out = []
    for x in a:
        if x == stop_at:
            break
        if x % 2 == 0:
            continue
        out.append(x)
    else:
        out.append(-1)
    for v in (1, 2, 3, 4):
        if v == stop_at:
            break
        if v == 2:
            continue
        out.append(v * 100)
    else:
        out.append(-2)
    return out


@pytest.mark.parametrize("stop_at", [0, 3, 5])
def test_break_continue_else(jit, stop_at):
    a = np.array([1, 2, 3, 4, 5, 6, 7], dtype=np.int64)
    out = np.zeros(16, dtype=np.int64)
    jit(break_continue_else)[1, 1](out, a, stop_at)
    expected = python_break_continue_else(a, stop_at)
    np.testing.assert_array_equal(out[:len(expected)], expected)


def nested_unrolled(out):
    n = 0
    for x in (1, 2):
        for y in (10.0, 20):
            out[n] = x * y
            n += 1
        out[n] = x
        n += 1


def test_nested_unrolled_loops(jit):
    out = np.zeros(6)
    jit(nested_unrolled)[1, 1](out)
    expected = []
    for x in (1, 2):
        expected += [x * y for y in (10.0, 20)] + [x]
    np.testing.assert_array_equal(out, expected)


def shape_loop(out, a):
    total = 1
    for extent in a.shape:
        total *= extent
    out[0] = total


def test_for_over_shape(jit):
    out = np.zeros(1, dtype=np.int64)
    jit(shape_loop)[1, 1](out, np.zeros((3, 4, 5)))
    assert out[0] == 60


def range_forms(out, n):
    k = 0
    for i in range(n):
        k += i
    for i in range(2, n):
        k += 10 * i
    for i in range(n, 0, -2):
        k += 100 * i
    out[0] = k


def test_range_forms_still_work(jit):
    out = np.zeros(1, dtype=np.int64)
    jit(range_forms)[1, 1](out, 9)
    assert out[0] == (sum(range(9)) + sum(10 * i for i in range(2, 9))
                      + sum(100 * i for i in range(9, 0, -2)))
