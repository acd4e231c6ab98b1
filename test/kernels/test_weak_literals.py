"""Python ints next to typed integers (NEP 50's weak literals): a comparison with a literal
outside the operand's type is computed as the numbers are (NumPy 2, Python), and an
expression of Python ints only is exact, as Python computes it."""

import operator

import numpy as np
import pytest

import kaji

COMPARISONS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


def compare_with_literals(out, x):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = v < 300
        out[i, 1] = v <= -1
        out[i, 2] = v > 2**63
        out[i, 3] = v >= -(2**63) - 1 + 1
        out[i, 4] = v == -1
        out[i, 5] = v != 2**64 - 1
        out[i, 6] = 300 > v
        out[i, 7] = -129 < v
        out[i, 8] = 2**63 == v


LITERAL_COMPARISONS = [
    (operator.lt, 300, False), (operator.le, -1, False), (operator.gt, 2**63, False),
    (operator.ge, -(2**63), False), (operator.eq, -1, False), (operator.ne, 2**64 - 1, False),
    (operator.gt, 300, True), (operator.lt, -129, True), (operator.eq, 2**63, True),
]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.int64,
                                   np.uint64])
def test_comparison_with_out_of_range_literal_is_mathematical(jit, dtype):
    info = np.iinfo(dtype)
    values = {info.min, info.min + 1, -1, 0, 1, 200, info.max - 1, info.max}
    x = np.array(sorted(v for v in values if info.min <= v <= info.max), dtype=dtype)
    out = np.zeros((x.size, len(LITERAL_COMPARISONS)), dtype=np.bool_)
    jit(compare_with_literals)[1, x.size](out, x)
    expected = [[op(literal, v) if literal_first else op(v, literal)
                 for op, literal, literal_first in LITERAL_COMPARISONS] for v in x.tolist()]
    np.testing.assert_array_equal(out, np.array(expected))


def exact_python_ints(out):
    out[0] = (2**63 - 1) + 1 == 2**63
    out[1] = 2**64 - 1 == 18446744073709551615
    out[2] = -(2**63) // -1 == 2**63
    out[3] = (1 << 63) >> 62 == 2
    out[4] = 2**63 > -1
    out[5] = -(2**63) % 7 == 6


def test_expressions_of_python_ints_are_exact(jit):
    out = np.zeros(6, dtype=np.bool_)
    jit(exact_python_ints)[1, 1](out)
    assert out.all()
    # the reference: Python itself
    expected = np.zeros(6, dtype=np.bool_)
    exact_python_ints(expected)
    assert expected.all()


def add_literal(out, x):
    out[0] = x[0] + 300


def test_arithmetic_with_out_of_range_literal_is_a_compile_error(jit):
    x = np.array([200], dtype=np.uint8)
    with pytest.raises(kaji.CompileError, match="Python integer 300 out of bounds for uint8"):
        jit(add_literal)[1, 1](np.zeros(1, dtype=np.uint8), x)
    with pytest.raises(OverflowError):  # what NumPy 2 does
        np.uint8(200) + 300
