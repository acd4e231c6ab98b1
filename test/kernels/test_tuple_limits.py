"""Tuples are compile-time values, one SSA value per element, and loops over them are
unrolled, so kaji refuses tuples over 10 000 elements and more than 10 000 unrolled loop
copies per function, at once and naming the expression (issue 21, item 7): `(1,) * 10**6`
unrolled for an hour, `(1,) * 10**11` exhausted memory. Up to the limit they work."""

import time

import numpy as np
import pytest

import kaji

LIMIT = 10000
BIG_GLOBAL = (1,) * (LIMIT + 1)


def repeat_at_the_limit(out, x):
    t = (x[0],) * 5000 + (x[1],) * 5000
    s = 0.0
    for v in t:
        s += v
    out[0] = s
    out[1] = len(t)


def test_a_tuple_at_the_limit_works(jit):
    out = np.zeros(2)
    jit(repeat_at_the_limit)[1, 1](out, np.array([1.5, 2.0]))
    assert out.tolist() == [5000 * 1.5 + 5000 * 2.0, LIMIT]


def repeat_far_too_often(out):
    t = (1,) * 10**11
    out[0] = len(t)


def concatenate_over_the_limit(out):
    t = (1, 2) * 5000
    u = t + (3,)
    out[0] = len(u)


def nested_over_the_limit(out):
    t = ((1, 2),) * 4000  # each element counts, and so do the nested ones: 12 000
    out[0] = len(t)


def use_big_global(out):
    out[0] = len(BIG_GLOBAL)


@pytest.mark.parametrize("kernel, size, where", [
    (repeat_far_too_often, 10**11, r"'\(1,\) \* 10 \*\* 11'"),
    (concatenate_over_the_limit, LIMIT + 1, r"'t \+ \(3,\)'"),
    (nested_over_the_limit, 12000, r"'\(\(1, 2\),\) \* 4000'"),
    (use_big_global, LIMIT + 1, "a global or closure value"),
])
def test_a_tuple_over_the_limit_is_a_compile_error_at_once(jit, kernel, size, where):
    start = time.perf_counter()
    with pytest.raises(kaji.CompileError,
                       match=f"tuple of {size} elements in {where} is over kaji's limit of "
                             f"{LIMIT}"):
        jit(kernel)[1, 1](np.zeros(1))
    assert time.perf_counter() - start < 5


def nested_unrolled_loops(out):
    t = (1,) * 200
    s = 0
    for a in t:
        for b in t:
            s += a * b
    out[0] = s


def test_unrolled_copies_are_limited_per_function(jit):
    with pytest.raises(kaji.CompileError, match="loops over tuples in 'nested_unrolled_loops' "
                                                "unroll more than 10000 copies"):
        jit(nested_unrolled_loops)[1, 1](np.zeros(1))
