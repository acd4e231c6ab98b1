"""Python's operator module in kernels: `operator.add(a, b)` through the module, bound to
another name (`add = operator.add`, as Numba-CUDA's tests bind it) or imported
(`from operator import mul`), each the operator it names, against Python's own operator on
the same values."""

import operator
from operator import mul, truediv

import numpy as np
import pytest

import kaji

add = operator.add

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.eq, operator.ne, operator.lt, operator.le,
          operator.gt, operator.ge]
BITWISE = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]
UNARY = [operator.neg, operator.pos, operator.abs, operator.not_, operator.truth]


def binary_kernel(function):
    def kernel(out, a, b):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = function(a[i], b[i])

    return kernel


@pytest.mark.parametrize("function", BINARY, ids=lambda f: f.__name__)
def test_arithmetic_and_comparisons_on_floats(jit, function):
    a = np.array([1.5, -2.0, 3.25, 7.0, 0.5])
    b = np.array([0.5, 4.0, -1.5, 2.0, 3.0])
    out = np.zeros(a.size)
    jit(binary_kernel(function))[1, 8](out, a, b)
    np.testing.assert_array_equal(out, [float(function(x, y)) for x, y in zip(a, b)])


@pytest.mark.parametrize("function", BINARY[:7] + BITWISE, ids=lambda f: f.__name__)
def test_integer_operators(jit, function):
    a = np.array([7, -9, 12, 3, 1], dtype=np.int64)
    b = np.array([2, 4, 5, 3, 6], dtype=np.int64)
    expected = np.array([function(int(x), int(y)) for x, y in zip(a, b)])
    out = np.zeros(a.size, dtype=expected.dtype)
    jit(binary_kernel(function))[1, 8](out, a, b)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("function", UNARY + [operator.invert], ids=lambda f: f.__name__)
def test_unary_operators(jit, function):
    def kernel(out, a):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = function(a[i])

    a = np.array([3, -4, 0, 9], dtype=np.int64)
    out = np.zeros(a.size, dtype=np.int64)
    jit(kernel)[1, 8](out, a)
    np.testing.assert_array_equal(out, [int(function(int(x))) for x in a])


def test_names_bound_to_operator_functions(jit):
    def kernel(out, a, b):
        out[0] = add(a[0], b[0])
        out[1] = mul(a[0], b[0])
        out[2] = truediv(a[0], b[0])
        out[3] = operator.sub(a[0], b[0])

    out = np.zeros(4)
    jit(kernel)[1, 1](out, np.array([6.0]), np.array([4.0]))
    np.testing.assert_array_equal(out, [10.0, 24.0, 1.5, 2.0])


def test_wrong_argument_count_names_the_function(jit):
    def kernel(out, a):
        out[0] = operator.add(a[0])

    with pytest.raises(kaji.CompileError, match=r"operator\.add\(\) takes 2 arguments \(1 given\)"):
        jit(kernel)[1, 1](np.zeros(1), np.zeros(1))
