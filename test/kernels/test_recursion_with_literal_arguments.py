"""A recursive device function called with a literal (issue 21, item 19): the literal
specialises the first call, and a recursive call passes int and bool literals as values (Numba
widens a literal type where recursion starts), so fact(20) is one specialisation for 20 and
one for int64, not 20 nested ones ("calls itself with ever new argument types"); mutual recursion alike."""

import math

import numpy as np
import pytest

import kaji


@kaji.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@kaji.jit(device=True)
def count_down(n, flag):
    if n <= 0:
        return 0 if flag else 100
    return 1 + count_down(n - 1, not flag)


@kaji.jit(device=True)
def ping(n):
    return 0 if n <= 0 else 1 + pong(n - 1)


@kaji.jit(device=True)
def pong(n):
    return 0 if n <= 0 else 10 + ping(n - 1)


def factorials(out, m):
    out[0] = fact(20)
    out[1] = fact(16)
    out[2] = fact(m[0])
    out[3] = count_down(40, True)
    out[4] = ping(41)
    out[5] = pong(33)


def test_recursion_with_a_literal_argument(jit):
    out = np.zeros(6, np.int64)
    jit(factorials)[1, 1](out, np.array([12], np.int64))

    def count_down_reference(n, flag):
        return (0 if flag else 100) if n <= 0 else 1 + count_down_reference(n - 1, not flag)

    def ping_pong_reference(n, step, other):
        return 0 if n <= 0 else step + ping_pong_reference(n - 1, other, step)

    assert out.tolist() == [math.factorial(20), math.factorial(16), math.factorial(12),
                            count_down_reference(40, True), ping_pong_reference(41, 1, 10),
                            ping_pong_reference(33, 10, 1)]


def deep_literal(out):
    out[0] = fact(60)


def test_literal_beyond_the_nesting_limit(jit):
    # 60 levels of literal specialisation would have been "ever new argument types"; the
    # int64 product wraps as numpy's does.
    out = np.zeros(1, np.int64)
    jit(deep_literal)[1, 1](out)
    wrapped = np.array(math.factorial(60) % 2**64, np.uint64).astype(np.int64)
    assert out[0] == wrapped
