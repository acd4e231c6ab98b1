"""Python's min/max of an integer and a Python int outside its type (issue 21, item 9): the
literal compares as the number it is, so the comparison is decided and the result is the
operand Python returns, in its own type. max(u16, -1) is the uint16 (and wraps as a uint16
afterwards), min(-7, u16) is -7; converting the literal to uint16 gave 65535 and 65529.
numpy's np.minimum/np.maximum raise OverflowError in NumPy 2 there: a compile error."""

import numpy as np
import pytest

import kaji

INTEGER_TYPES = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32]


def min_max_with_literals(out, b):
    i = kaji.grid(1)
    if i < b.size:
        out[0, i] = max(b[i], -1)
        out[1, i] = min(-7, b[i])
        out[2, i] = min(b[i], 5000000000)
        out[3, i] = max(b[i], -5000000000)
        out[4, i] = max(-1, b[i], -3)
        out[5, i] = min(b[i], 5000000000, b[i] // 2)


def reference(b):
    return [max(b, -1), min(-7, b), min(b, 5000000000), max(b, -5000000000), max(-1, b, -3),
            min(b, 5000000000, b // 2)]


@pytest.mark.parametrize("dtype", INTEGER_TYPES)
def test_min_max_of_an_out_of_range_literal_are_pythons(jit, dtype):
    info = np.iinfo(dtype)
    b = np.array(sorted({info.min, info.min + 1, 0, 1, 2, 7, info.max - 1, info.max}), dtype)
    out = np.zeros((6, b.size), dtype=np.float64)
    jit(min_max_with_literals)[1, b.size](out, b)
    # float64 holds every expected value here exactly (at most 2**64 - 1 rounds alike).
    expected = np.array([reference(v) for v in b], dtype=np.float64).T
    np.testing.assert_array_equal(out, expected)


def min_max_keep_the_operands_type(out, b):
    i = kaji.grid(1)
    if i < b.size:
        out[0, i] = max(b[i], -1) - 1
        out[1, i] = min(-7, b[i]) * 3


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_the_result_has_the_type_python_returns(jit, dtype):
    # max(u, -1) is u, so `- 1` wraps in u's type as numpy's does; min(-7, u) is the Python
    # int -7, so `* 3` is -21.
    b = np.array([0, 1, np.iinfo(dtype).max], dtype)
    out = np.zeros((2, b.size), dtype=np.float64)
    jit(min_max_keep_the_operands_type)[1, b.size](out, b)
    with np.errstate(over="ignore"):
        expected = np.array([[max(v, -1) - 1 for v in b], [min(-7, v) * 3 for v in b]],
                            dtype=np.float64)
    np.testing.assert_array_equal(out, expected)


def numpy_maximum_with_minus_one(out, b):
    out[0] = np.maximum(b[0], -1)


def test_numpy_maximum_with_an_out_of_range_literal_is_a_compile_error(jit):
    b = np.zeros(1, np.uint16)
    with pytest.raises(kaji.CompileError, match="Python integer -1 out of bounds for uint16"):
        jit(numpy_maximum_with_minus_one)[1, 1](np.zeros(1, np.int64), b)
    with pytest.raises(OverflowError):  # what NumPy 2 does
        np.maximum(b[0], -1)
