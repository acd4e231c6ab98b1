"""Functions given implementations by Numba's extension API (`kaji.cuda.extending`):
`@overload` picks one by the call's argument types (kaji type objects: Integer, Float,
Complex, Boolean, Array, UniTuple, Tuple, none), a "cuda" one before a "generic" one and never
a "cpu" one; keyword and default arguments; overloaded functions calling each other; and
`@register_jitable`. Each result is checked against the Python the implementation spells."""

import numpy as np
import pytest

import kaji
from kaji import types
from kaji.cuda.extending import overload, register_jitable


def clamp(x, low, high):
    raise NotImplementedError("kernels call the overload")


@overload(clamp, target="cuda")
def clamp_by_kind(x, low, high):
    if isinstance(x, types.Integer):
        return lambda x, low, high: min(max(x, low), high) * 10
    if isinstance(x, types.Float):
        return lambda x, low, high: min(max(x, low), high) + 0.25
    return None


def kind_code(x):
    raise NotImplementedError


@overload(kind_code)
def kind_code_of(x):
    code = {types.Boolean: 1, types.Integer: 2, types.Float: 3, types.Complex: 4}
    for kind, value in code.items():
        if isinstance(x, kind):
            return lambda x: value
    if isinstance(x, types.Array):
        rank = x.ndim
        return lambda x: 10 * rank + x.size
    if isinstance(x, (types.UniTuple, types.Tuple)):
        count = len(x.types)
        return lambda x: 100 + count
    if x == types.none:
        return lambda x: -1
    return None


def scaled(x):
    raise NotImplementedError


@overload(scaled, target="generic")
def scaled_generic(x):
    return lambda x: x * 2


@overload(scaled, target="cuda")
def scaled_for_kernels(x):
    return lambda x: x * 3


@overload(scaled, target="cpu")
def scaled_for_numbas_cpu(x):
    return lambda x: x * 5


def defaults(out, x, y=5, z=6):
    raise NotImplementedError


@overload(defaults)
def defaults_impl(out, x, y=5, z=6):
    def impl(out, x, y=5, z=6):
        out[0], out[1] = x + y, z

    return impl


def outer(x):
    raise NotImplementedError


@overload(outer)
def outer_impl(x):
    return lambda x: scaled(x) + 1  # an implementation calling an overloaded function


@register_jitable
def cube(x):
    return x * x * x


@register_jitable(inline="always")
def halve(x):
    return x / 2


def test_the_argument_types_pick_the_implementation(jit):
    @jit
    def kernel(out, f, i):
        out[0] = clamp(f, 0.0, 1.0)
        out[1] = clamp(i, 0, 3)

    out = np.zeros(2)
    kernel[1, 1](out, 1.5, 7)
    np.testing.assert_array_equal(out, [1.25, 30])


def test_typing_functions_see_kajis_type_objects(jit):
    @jit
    def kernel(out, flag, n, x, c, values, grid, pair, mixed):
        out[0] = kind_code(flag)
        out[1] = kind_code(n)
        out[2] = kind_code(x)
        out[3] = kind_code(c)
        out[4] = kind_code(values)
        out[5] = kind_code(grid)
        out[6] = kind_code(pair)
        out[7] = kind_code(mixed)
        out[8] = kind_code(None)

    out = np.zeros(9)
    kernel[1, 1](out, True, 3, 2.5, 1j, np.zeros(4), np.zeros((2, 3)), (1, 2), (1, 2.5, 3))
    np.testing.assert_array_equal(out, [1, 2, 3, 4, 14, 26, 102, 103, -1])


def test_a_cuda_implementation_comes_before_a_generic_one_and_cpu_ones_never(jit):
    @jit
    def kernel(out, x):
        out[0] = scaled(x)
        out[1] = outer(x)

    out = np.zeros(2, dtype=np.int64)
    kernel[1, 1](out, 7)
    np.testing.assert_array_equal(out, [21, 22])


def test_keyword_and_default_arguments(jit):
    @jit
    def kernel(a, b, out):
        defaults(out, a, z=b)

    out = np.zeros(2, dtype=np.int64)
    kernel[1, 1](1, 2, out)
    np.testing.assert_array_equal(out, [6, 2])


def test_register_jitable_functions_are_device_functions_and_stay_python(jit):
    @jit
    def kernel(out, x):
        out[0] = cube(x)
        out[1] = halve(x)

    out = np.zeros(2)
    kernel[1, 1](out, 3.0)
    np.testing.assert_array_equal(out, [27.0, 1.5])
    assert cube(2) == 8 and halve(3) == 1.5


def test_no_implementation_for_the_types_is_a_compile_error_naming_them(jit):
    @jit
    def kernel(out):
        out[0] = clamp(1j, 0, 1)

    with pytest.raises(kaji.CompileError) as raised:
        kernel[1, 1](np.zeros(1))
    message = str(raised.value)
    assert "No implementation of function 'clamp' found for signature" in message
    assert ">>> clamp(complex128, int64, int64)" in message
    assert "out[0] = clamp(1j, 0, 1)" in message  # the user's line, with a caret


def test_a_typing_function_that_raises_is_a_compile_error_saying_why(jit):
    def broken(x):
        raise NotImplementedError

    @overload(broken)
    def broken_typing(x):
        raise ValueError("this typing function is broken")

    @jit
    def kernel(out):
        out[0] = broken(1)

    with pytest.raises(kaji.CompileError, match="this typing function is broken"):
        kernel[1, 1](np.zeros(1))


def test_arguments_no_implementation_takes_are_named(jit):
    @jit
    def kernel(out):
        out[0] = kind_code(kaji)

    with pytest.raises(kaji.CompileError, match="cannot pass 'module 'kaji'' to 'kind_code'"):
        kernel[1, 1](np.zeros(1))
