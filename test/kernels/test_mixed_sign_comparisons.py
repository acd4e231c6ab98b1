"""Comparisons of uint64 with a signed integer are exact (issue 21, item 10), as NumPy 2 and
Python compare: their promoted type, float64, rounds both, which made 2**63 == 2**63 - 1 and
2**64 - 1 < 2**63 - 1 wrong. Every operator, both operand orders, every signed width."""

import operator

import numpy as np
import pytest

import kaji

OPERATORS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


def compare_all(out, a, b):
    i = kaji.grid(1)
    if i < a.size:
        x, y = a[i], b[i]
        out[0, i], out[1, i], out[2, i] = x == y, x != y, x < y
        out[3, i], out[4, i], out[5, i] = x <= y, x > y, x >= y


def edges(dtype):
    info = np.iinfo(dtype)
    values = {int(info.min), int(info.min) + 1, -1, 0, 1, int(info.max) - 1, int(info.max)}
    return {v for v in values if info.min <= v <= info.max}


@pytest.mark.parametrize("signed", [np.int8, np.int16, np.int32, np.int64])
def test_uint64_against_a_signed_integer_compares_exactly(jit, signed):
    unsigned_values = edges(np.uint64) | {2**63 - 1, 2**63, 2**63 + 1, 2**53 + 1}
    signed_values = edges(signed) | ({2**63 - 2, 2**53} if signed is np.int64 else set())
    pairs = [(u, s) for u in sorted(unsigned_values) for s in sorted(signed_values)]
    a = np.array([u for u, _ in pairs], np.uint64)
    b = np.array([s for _, s in pairs], signed)
    for first, second in ((a, b), (b, a)):
        out = np.zeros((6, a.size), np.bool_)
        jit(compare_all)[(a.size + 63) // 64, 64](out, first, second)
        # Python's ints are the exact reference; NumPy 2 agrees.
        expected = np.array([[op(int(x), int(y)) for x, y in zip(first, second)]
                             for op in OPERATORS])
        np.testing.assert_array_equal(out, expected)
        np.testing.assert_array_equal(out, np.array([op(first, second) for op in OPERATORS]))


def equal_to_neighbour(out, a, b):
    out[0] = a[0] == b[0]
    out[1] = a[0] > b[0]


def test_two_to_the_63_is_not_two_to_the_63_minus_one(jit):
    out = np.zeros(2, np.bool_)
    jit(equal_to_neighbour)[1, 1](out, np.array([2**63], np.uint64),
                                  np.array([2**63 - 1], np.int64))
    assert out.tolist() == [False, True]
