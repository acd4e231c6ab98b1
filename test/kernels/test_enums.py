"""Enum and IntEnum members and classes in kernels: as globals and closure constants, as
attributes of their class; ==, !=, is, .value, int() and arithmetic of IntEnum members."""

import enum

import numpy as np
import pytest

import kaji


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1  # an alias of RED


class Shape(enum.IntEnum):
    CIRCLE = 10
    SQUARE = 20


RED = Color.RED


def compare_members(out, x):
    out[0] = Color.RED == Color.RED
    out[1] = Color.RED != Color.GREEN
    out[2] = RED is Color.RED
    out[3] = Color.BLUE is not Color.RED
    out[4] = Color.GREEN == Color.BLUE
    out[5] = x[0] == Color.GREEN.value
    out[6] = Shape.CIRCLE == 10
    out[7] = Shape.SQUARE is Shape.SQUARE
    out[8] = Color.CRIMSON is Color.RED


def test_members_compare_at_compile_time(jit):
    out = np.zeros(9, dtype=np.bool_)
    jit(compare_members)[1, 1](out, np.array([2]))
    assert list(out) == [True, True, True, True, False, True, True, True, True]


def values_and_arithmetic(out, x):
    out[0] = Color.BLUE.value
    out[1] = int(Shape.SQUARE)
    out[2] = Shape.CIRCLE + x[0]
    out[3] = Shape.SQUARE * 2 - Shape.CIRCLE
    out[4] = x[0] if Shape.CIRCLE < Shape.SQUARE else -1


def test_values_and_int_enum_arithmetic(jit):
    out = np.zeros(5, dtype=np.int64)
    jit(values_and_arithmetic)[1, 1](out, np.array([7]))
    assert list(out) == [3, 20, 17, 30, 7]


def make_kernel(mode):
    def kernel(out, x):
        if mode == Color.RED:
            out[0] = x[0] + 1
        elif mode is Color.GREEN:
            out[0] = x[0] + 2
        else:
            out[0] = mode.value

    return kernel


def test_closure_members_choose_code(jit):
    for mode, expected in [(Color.RED, 6), (Color.GREEN, 7), (Color.BLUE, 3)]:
        out = np.zeros(1, dtype=np.int64)
        jit(make_kernel(mode))[1, 1](out, np.array([5]))
        assert out[0] == expected


def member_in_variable(out, x):
    chosen = Color.BLUE
    if x[0] > 0:
        chosen = Color.GREEN
    out[0] = chosen == Color.GREEN


def test_a_variable_holding_a_member_compares_by_value(jit):
    out = np.zeros(1, dtype=np.bool_)
    kernel = jit(member_in_variable)
    kernel[1, 1](out, np.array([1]))
    assert out[0]
    kernel[1, 1](out, np.array([-1]))
    assert not out[0]


def enum_arithmetic(out):
    out[0] = Color.RED + 1


def enum_order(out):
    out[0] = Color.RED < Color.GREEN


def test_enum_members_have_no_arithmetic_or_order(jit):
    with pytest.raises(kaji.CompileError, match=r"test_enums.py:\d+:\d+: error: cannot add "
                                                r"'enum member '.*Color.RED'' and 'int64'"):
        jit(enum_arithmetic)[1, 1](np.zeros(1, dtype=np.int64))
    with pytest.raises(kaji.CompileError, match="'<' is not defined for 'enum member"):
        jit(enum_order)[1, 1](np.zeros(1, dtype=np.bool_))


def members_by_name(out):
    out[0] = Color['GREEN'].value
    out[1] = Color['CRIMSON'] == Color.RED
    out[2] = Shape['SQUARE'] + 1


def test_members_by_name(jit):
    out = np.zeros(3, np.int64)
    jit(members_by_name)[1, 1](out)
    np.testing.assert_array_equal(out, [2, 1, 21])


def test_an_unknown_name_is_an_error_naming_it(jit):
    def kernel(out):
        out[0] = Color['PURPLE'].value

    with pytest.raises(kaji.CompileError, match="has no member 'PURPLE'"):
        jit(kernel)[1, 1](np.zeros(1, np.int64))


class RoundMode(int):
    """An enumeration of ints that is no enum.Enum, as cuda-python's (cudaRoundMode)."""


RoundMode.ZERO = RoundMode(1)
RoundMode.UP = RoundMode(2)


def use_int_enumeration(out):
    out[0] = RoundMode.UP
    out[1] = RoundMode.ZERO + 10


def test_an_int_enumeration_that_is_no_enum_is_one_of_int_members(jit):
    out = np.zeros(2, dtype=np.int64)
    jit(use_int_enumeration)[1, 1](out)
    assert out.tolist() == [2, 11]
