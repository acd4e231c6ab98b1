"""Compile-time arguments of device functions: functions (device functions, math functions,
atomics, Python builtins bound to other names), types and dtypes, modules, enum classes and
members, int and bool literals that decide control flow, strings. The callee is specialised on each
such value; a tuple of such values (a shape and a dtype) is one too."""

import enum
import math

import numpy as np
import pytest

import kaji
from kaji import cuda


@kaji.jit(device=True)
def square(v):
    return v * v


@kaji.jit(device=True)
def cube(v):
    return v * v * v


@kaji.jit(device=True)
def apply(f, v):
    return f(v)


@kaji.jit(device=True)
def apply_twice(f, v):
    return apply(f, apply(f, v))


@kaji.jit(device=True)
def cast(t, v):
    return t(v)


@kaji.jit(device=True)
def accumulate(op, out, v):
    op(out, 0, v)


@kaji.jit(device=True)
def pick(flag, a, b):
    if flag:
        return a
    return b


@kaji.jit(device=True)
def element(t, k):
    return t[k]


@kaji.jit(device=True)
def sqrt_with(module, v):
    return module.sqrt(v)


class Op(enum.Enum):
    ADD = 1
    MUL = 2


@kaji.jit(device=True)
def combine(op, a, b):
    if op == Op.ADD:
        return a + b
    return a * b


OPERATIONS = (square, cube)
UINT = np.uint32
# Python builtins bound to other names are the builtins themselves, alone or in a tuple with
# device functions.
F = abs
LARGER = max
OPS_ROUND = round
OPS = (square, abs)


def apply_functions(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = apply(square, x[i])
        out[1, i] = apply(cube, x[i])
        out[2, i] = apply(math.sin, x[i])
        out[3, i] = apply_twice(square, x[i])
        out[4, i] = apply(OPERATIONS[1], x[i])


def test_functions_as_arguments(jit):
    x = np.linspace(-2, 2, 200)
    out = np.zeros((5, x.size))
    jit(apply_functions)[2, 128](out, x)
    np.testing.assert_array_equal(out[0], x * x)
    np.testing.assert_array_equal(out[1], x * x * x)
    np.testing.assert_allclose(out[2], np.sin(x), rtol=1e-15, atol=1e-15)
    np.testing.assert_array_equal(out[3], (x * x) * (x * x))
    np.testing.assert_array_equal(out[4], x * x * x)


def test_closure_variable_holding_a_function(jit):
    chosen = cube

    def kernel(out, x):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = apply(chosen, x[i])

    x = np.arange(-10, 10, dtype=np.int64)
    out = np.zeros_like(x)
    jit(kernel)[1, 32](out, x)
    np.testing.assert_array_equal(out, x ** 3)


def cast_types(out8, out32, out64, x):
    i = kaji.grid(1)
    if i < x.size:
        out8[i] = cast(np.int8, x[i])
        out32[i] = cast(UINT, x[i])
        out64[i] = cast(kaji.float64, x[i]) / 3


def test_types_as_arguments(jit):
    x = np.array([0, 1, 127, 128, 300, -1, -129, 2**40 + 5], dtype=np.int64)
    out8 = np.zeros(x.size, dtype=np.int64)
    out32 = np.zeros(x.size, dtype=np.int64)
    out64 = np.zeros(x.size, dtype=np.float64)
    jit(cast_types)[1, 32](out8, out32, out64, x)
    np.testing.assert_array_equal(out8, x.astype(np.int8))
    np.testing.assert_array_equal(out32, x.astype(np.uint32))
    np.testing.assert_array_equal(out64, x.astype(np.float64) / 3)


def atomics_as_arguments(total, largest, x):
    i = kaji.grid(1)
    if i < x.size:
        accumulate(cuda.atomic.add, total, x[i])
        accumulate(cuda.atomic.max, largest, x[i])


def test_intrinsics_as_arguments(jit):
    x = np.arange(1, 301, dtype=np.int64)
    total = np.zeros(1, dtype=np.int64)
    largest = np.zeros(1, dtype=np.int64)
    jit(atomics_as_arguments)[3, 128](total, largest, x)
    assert total[0] == x.sum()
    assert largest[0] == x.max()


def literals_decide(out, x):
    i = kaji.grid(1)
    if i < x.size:
        # The branch not taken returns a tuple: only folding it makes `pick` a number.
        out[0, i] = pick(True, x[i], (1, 2))
        out[1, i] = pick(False, (1, 2), x[i] + 1)
        # A literal index into a tuple of mixed types must be a constant.
        out[2, i] = element((x[i], 2.5, 7), 0)
        out[3, i] = element((x[i], 2.5, 7), 1)
        out[4, i] = element((x[i], 2.5, 7), -1)


def test_literals_fold_control_flow(jit):
    x = np.arange(50, dtype=np.float64)
    out = np.zeros((5, x.size))
    jit(literals_decide)[1, 64](out, x)
    np.testing.assert_array_equal(out[0], x)
    np.testing.assert_array_equal(out[1], x + 1)
    np.testing.assert_array_equal(out[2], x)
    np.testing.assert_array_equal(out[3], 2.5)
    np.testing.assert_array_equal(out[4], 7)


def enums_and_modules(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = combine(Op.ADD, x[i], 3.0)
        out[1, i] = combine(Op.MUL, x[i], 3.0)
        out[2, i] = sqrt_with(math, x[i])
        out[3, i] = sqrt_with(np, x[i])


def test_enum_members_and_modules_as_arguments(jit):
    x = np.linspace(0, 9, 40)
    out = np.zeros((4, x.size))
    jit(enums_and_modules)[1, 64](out, x)
    np.testing.assert_array_equal(out[0], x + 3)
    np.testing.assert_array_equal(out[1], x * 3)
    np.testing.assert_array_equal(out[2], np.sqrt(x))
    np.testing.assert_array_equal(out[3], np.sqrt(x))


@kaji.jit(device=True)
def scaled(v, factor):
    if factor is None:
        return v
    return v * factor


def none_argument(out, x):
    out[0] = scaled(x[0], None)
    out[1] = scaled(x[0], 3.0)


def test_none_as_argument(jit):
    out = np.zeros(2)
    jit(none_argument)[1, 1](out, np.array([2.5]))
    np.testing.assert_array_equal(out, [2.5, 7.5])


@kaji.jit(device=True)
def by_name(mode, v):
    # Numba types a string argument as a literal: the comparisons fold, one branch is compiled.
    if mode == "double":
        return 2 * v
    if mode < "m":  # code point order, as Python's
        return v - 1
    return v


def string_arguments(out, x):
    out[0] = by_name("double", x[0])
    out[1] = by_name("half", x[0])
    out[2] = by_name("zeta", x[0])
    out[3] = by_name("d\u00f6uble", x[0])
    out[4] = "b" > "a" and "é" != "e"


def test_strings_as_arguments(jit):
    out = np.zeros(5)
    jit(string_arguments)[1, 1](out, np.array([4.0]))
    assert list(out) == [8.0, 3.0, 4.0, 3.0, 1.0]


@kaji.jit(device=True)
def countdown(n, out):
    # A literal parameter that is assigned is a variable starting from the literal.
    total = 0
    while n > 0:
        total += n
        n -= 1
    out[0] = total


def assigned_literal(out):
    countdown(10, out)


def test_assigned_literal_parameter(jit):
    out = np.zeros(1, dtype=np.int64)
    jit(assigned_literal)[1, 1](out)
    assert out[0] == 55


def function_at_launch(out, f):
    out[0] = f(1.0)


def test_function_cannot_be_a_kernel_argument(jit):
    out = np.zeros(1)
    # Numba has no first-class functions in kernel arguments either: pass it as a global.
    with pytest.raises(TypeError, match="unsupported type 'DeviceFunction'"):
        jit(function_at_launch)[1, 1](out, square)


def builtins_through_globals(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = F(x[i])
        out[1, i] = LARGER(x[i], 0.5)
        out[2, i] = OPS_ROUND(x[i])


def test_a_global_bound_to_a_builtin_is_that_builtin(jit):
    x = np.linspace(-3.25, 3.25, 200)
    out = np.zeros((3, x.size))
    jit(builtins_through_globals)[2, 128](out, x)
    np.testing.assert_array_equal(out[0], np.abs(x))
    np.testing.assert_array_equal(out[1], np.maximum(x, 0.5))
    np.testing.assert_array_equal(out[2], np.round(x))


def a_tuple_of_functions_and_builtins(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = OPS[0](x[i])
        out[1, i] = OPS[1](x[i])
        out[2, i] = apply(OPS[1], x[i])
        k = 3
        for op in OPS:
            out[k, i] = op(x[i])
            k += 1


def test_a_tuple_of_device_functions_and_builtins(jit):
    x = np.linspace(-2, 2, 100)
    out = np.zeros((5, x.size))
    jit(a_tuple_of_functions_and_builtins)[1, 128](out, x)
    for row, expected in zip(out, (x * x, np.abs(x), np.abs(x), x * x, np.abs(x))):
        np.testing.assert_array_equal(row, expected)


def test_a_closure_variable_bound_to_a_builtin(jit):
    smaller = min

    def kernel(out, x):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = smaller(x[i], 3)

    x = np.arange(-5, 10, dtype=np.int64)
    out = np.zeros_like(x)
    jit(kernel)[1, 32](out, x)
    np.testing.assert_array_equal(out, np.minimum(x, 3))


# A tuple of compile-time values is one: Numba-CUDA's shared-array test passes a shape and a
# dtype to a device function that allocates the array.

@cuda.jit(device=True)
def fill_shared(ary_shape, ary_dtype, out):
    s = cuda.shared.array(ary_shape, ary_dtype)
    rows, cols = ary_shape
    for r in range(rows):
        for c in range(cols):
            s[r, c] = r * cols + c
    total = 0
    for r in range(rows):
        for c in range(cols):
            total += s[r, c]
    out[0] = total
    out[1] = s.shape[0] * 100 + s.shape[1]


@cuda.jit(device=True)
def local_of(shape, values, out):
    a = cuda.local.array(shape, np.float64)
    for i in range(shape[0]):
        a[i] = values[i]
    out[0] = a.size
    out[1] = a[shape[0] - 1]


def test_a_shape_tuple_and_a_dtype_passed_to_a_device_function(jit):
    def kernel(out):
        fill_shared((4, 8), np.uint32, out)

    out = np.zeros(2, np.uint32)
    jit(kernel)[1, 1](out)
    np.testing.assert_array_equal(out, [sum(range(32)), 408])


def test_each_literal_tuple_is_its_own_specialisation(jit):
    def kernel(out, values):
        local_of((3,), values, out[0])
        local_of((5,), values, out[1])

    values = np.arange(1.0, 6.0)
    out = np.zeros((2, 2))
    jit(kernel)[1, 1](out, values)
    np.testing.assert_array_equal(out, [[3, 3.0], [5, 5.0]])


def test_a_tuple_holding_a_run_time_value_stays_a_run_time_argument(jit):
    @cuda.jit(device=True)
    def first_plus_second(pair):
        return pair[0] + pair[1]

    def kernel(out, x):
        out[0] = first_plus_second((x[0], 2))
        out[1] = first_plus_second((3, 4))

    out = np.zeros(2, np.int64)
    jit(kernel)[1, 1](out, np.array([5], np.int64))
    np.testing.assert_array_equal(out, [7, 7])


def test_a_run_time_shape_tuple_is_refused_naming_the_shape(jit):
    @cuda.jit(device=True)
    def allocate(shape, out):
        a = cuda.local.array(shape, np.int32)
        a[0] = 1
        out[0] = a[0]

    def kernel(out, n):
        allocate((n[0], 2), out)

    with pytest.raises(kaji.CompileError, match="shape"):
        jit(kernel)[1, 1](np.zeros(1, np.int32), np.array([2], np.int64))


NOTHING = None


def none_globals_kernel(flag, alignment):
    def kernel(out):
        local = kaji.local.array(4, dtype=np.float64, alignment=alignment)
        local[0] = 3.0
        if flag is None:
            out[0] = local[0]
        else:
            out[0] = -1.0
        out[1] = 1.0 if NOTHING is None else 0.0

    return kernel


def test_none_bound_to_a_global_or_closure_variable_is_none(jit):
    # A closure variable bound to None was read as a member of `math` (every module lacks it).
    out = np.zeros(2)
    jit(none_globals_kernel(None, None))[1, 1](out)
    assert list(out) == [3.0, 1.0]
    jit(none_globals_kernel(0, 16))[1, 1](out)
    assert list(out) == [-1.0, 1.0]
