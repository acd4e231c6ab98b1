"""Tuples inside kernels: building, constant and negative indexing, slicing, unpacking,
len, comparison as Python compares sequences, `+` and `*`, `in`, nested tuples in variables,
a tuple variable as an n-d index (also in atomics), shapes from tuples; namedtuple fields.
Each against the same expression evaluated by Python."""

import collections

import numpy as np
import pytest

import kaji


def index_and_unpack(out, x, y):
    t = (x, y, x + y)
    a, b, c = t
    out[0] = t[0]
    out[1] = t[-1]
    out[2] = len(t)
    out[3] = a * 100 + b * 10 + c
    s = t[1:]
    out[4] = s[0] + len(s)
    r = t[::-1]
    out[5] = r[0]


def test_index_slice_unpack_len(jit):
    out = np.zeros(6, dtype=np.int64)
    jit(index_and_unpack)[1, 1](out, 3, 4)
    t = (3, 4, 7)
    np.testing.assert_array_equal(out, [t[0], t[-1], len(t), 3 * 100 + 4 * 10 + 7,
                                        t[1:][0] + len(t[1:]), t[::-1][0]])


def comparisons(out, x, y):
    a = (1, x, 3.0)
    b = (1, y, 3)
    out[0] = a == b
    out[1] = a != b
    out[2] = a < b
    out[3] = a <= b
    out[4] = a > b
    out[5] = a >= b
    out[6] = (1, 2) < (1, 2, 0)
    out[7] = (x,) == (x, x)
    out[8] = x in (1, 2, y)
    out[9] = x not in (1, 2, y)


@pytest.mark.parametrize("x,y", [(2, 2), (1, 2), (3, 2)])
def test_comparisons_as_python(jit, x, y):
    out = np.zeros(10, dtype=np.bool_)
    jit(comparisons)[1, 1](out, x, y)
    a, b = (1, x, 3.0), (1, y, 3)
    expected = [a == b, a != b, a < b, a <= b, a > b, a >= b, (1, 2) < (1, 2, 0),
                (x,) == (x, x), x in (1, 2, y), x not in (1, 2, y)]
    np.testing.assert_array_equal(out, expected)


def concatenate(out, x):
    t = (x, 2) + (3.5,) + ()
    u = (x,) * 3
    out[0] = len(t)
    out[1] = t[2]
    out[2] = len(u)
    out[3] = u[2]


def test_concatenate_and_repeat(jit):
    out = np.zeros(4)
    jit(concatenate)[1, 1](out, 5)
    np.testing.assert_array_equal(out, [3, 3.5, 3, 5])


def nested(out, x):
    t = ((x, 2.5), (3, (4, x * 2)))
    total = 0.0
    for k in range(3):
        t = ((t[0][0] + 1, t[0][1]), t[1])
        total += t[0][0]
    out[0] = total
    out[1] = t[1][1][1]
    out[2] = len(t[1])


def test_nested_tuple_variable(jit):
    out = np.zeros(3)
    jit(nested)[1, 1](out, 10)
    np.testing.assert_array_equal(out, [11 + 12 + 13, 20, 2])


def tuple_index(a, counts):
    i, j = kaji.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        idx = (i, j)
        a[idx] = i * 10 + j
        kaji.atomic.add(counts, (i % 2, j % 2), 1)


def test_tuple_variable_as_index(jit):
    a = np.zeros((4, 6), dtype=np.int64)
    counts = np.zeros((2, 2), dtype=np.int64)
    jit(tuple_index)[(1, 1), (4, 6)](a, counts)
    i, j = np.indices(a.shape)
    np.testing.assert_array_equal(a, i * 10 + j)
    np.testing.assert_array_equal(counts, [[6, 6], [6, 6]])


SHAPE = (4, 8)


def shape_from_tuple(out):
    tile = kaji.local.array(SHAPE, np.float64)
    dims = (2, 3)
    small = kaji.local.array(dims, np.int32)
    for i in range(SHAPE[0]):
        for j in range(SHAPE[1]):
            tile[i, j] = i * j
    small[1, 2] = 7
    out[0] = tile[3, 7] + small[1, 2] + tile.shape[1] + small.shape[0]


def test_shapes_from_tuples(jit):
    out = np.zeros(1)
    jit(shape_from_tuple)[1, 1](out)
    assert out[0] == 21 + 7 + 8 + 2


def tuple_truth(out, x):
    t = (x,)
    e = ()
    out[0] = bool(t)
    out[1] = bool(e)


def test_tuple_truth(jit):
    out = np.zeros(2, dtype=np.bool_)
    jit(tuple_truth)[1, 1](out, 0)
    np.testing.assert_array_equal(out, [True, False])


def runtime_index(out, n):
    t = (10, 20, 30, n)
    for i in range(4):
        out[i] = t[i] + t[-1 - i]


def test_runtime_index_of_uniform_tuple(jit):
    out = np.zeros(4, dtype=np.int64)
    jit(runtime_index)[1, 1](out, 40)
    t = (10, 20, 30, 40)
    np.testing.assert_array_equal(out, [t[i] + t[-1 - i] for i in range(4)])


def tuple_calls(out):
    t = tuple((1, 2, 3))
    for v in tuple((4, 5)):
        out[v - 4] = v
    out[2] = len(tuple()) + t[2]


def test_tuple_of_a_tuple_is_itself_and_of_nothing_empty(jit):
    out = np.zeros(3, np.int64)
    jit(tuple_calls)[1, 1](out)
    np.testing.assert_array_equal(out, [4, 5, 3])


def test_tuple_of_something_else_is_a_compile_error(jit):
    def kernel(out):
        out[0] = len(tuple(out))

    with pytest.raises(kaji.CompileError, match=r"tuple\(\) in kernels takes a tuple"):
        jit(kernel)[1, 1](np.zeros(1))


def shape_from_the_end(out, a, k):
    out[0] = a.shape[-k]


@pytest.mark.parametrize("debug", [False, True])
def test_a_runtime_tuple_index_out_of_range_is_pythons_index_error(target, debug):
    # Python's IndexError where the target reports exceptions: the cpu target, and the GPU
    # with debug=True (as Numba's); a GPU kernel without debug reads no further than the tuple.
    reports = target == "cpu" or debug
    kernel = kaji.jit(target=target, debug=debug, opt=not debug)(shape_from_the_end)
    out = np.zeros(1, dtype=np.int64)
    kernel[1, 1](out, np.zeros((3, 5)), 2)
    assert out[0] == 3
    if reports:
        with pytest.raises(IndexError, match="tuple index out of range"):
            kernel[1, 1](out, np.zeros((3, 5)), 3)
    else:
        kernel[1, 1](out, np.zeros((3, 5)), 3)


def tuple_arguments(out, uniform, mixed, nested, empty):
    out[0] = uniform[0] + uniform[1] + uniform[2]
    out[1] = mixed[0] * mixed[1]
    out[2] = nested[0][1] + nested[1]
    out[3] = len(empty)
    arr = nested[0][0]
    out[4] = arr[1]
    out[5] = len(uniform) + len(nested[0])


@pytest.mark.parametrize("scalar", [3, np.int32(3), np.float32(3.5)])
def test_tuple_kernel_arguments(jit, scalar):
    out = np.zeros(6)
    arr = np.array([1.5, 2.5, 3.5])
    kernel = jit(tuple_arguments)
    kernel[1, 1](out, (1, 2, 3), (scalar, 2.0), ((arr, 7), 8.5), ())
    np.testing.assert_array_equal(out, [6, scalar * 2.0, 15.5, 0, 2.5, 5])


def test_tuple_structure_is_part_of_the_key(jit):
    kernel = jit(tuple_arguments)
    arr = np.array([1.0, 2.0])
    out = np.zeros(6)
    kernel[1, 1](out, (1, 2, 3), (1, 2.0), ((arr, 7), 8.5), ())
    kernel[1, 1](out, (1, 2, 3, 4), (1, 2.0), ((arr, 7), 8.5), ())
    assert out[5] == 6
    kernel[1, 1](out, (1.5, 2, 3), (1, 2.0), ((arr, 7), 8.5), ())
    assert out[0] == 6.5
    assert len(kernel.signatures) == 3
    assert any("UniTuple(int64 x 4)" in s for s in kernel.signatures)


def test_eager_tuple_signature(target):
    kernel = kaji.jit("void(float64[:], UniTuple(int64 x 3), Tuple(float64, int32), "
                      "Tuple(Tuple(float64[:], int64), float64), Tuple())",
                      target=target)(tuple_arguments)
    out = np.zeros(6)
    arr = np.array([1.0, 4.0])
    kernel[1, 1](out, (1, 2, 3), (1.5, np.int32(2)), ((arr, 7), 8.5), ())
    np.testing.assert_array_equal(out, [6, 3.0, 15.5, 0, 4.0, 5])
    with pytest.raises(TypeError, match="has no signature"):
        kernel[1, 1](out, (1, 2), (1.5, 2), ((arr, 7), 8.5), ())


Point = collections.namedtuple("Point", ["x", "y"])
Box = collections.namedtuple("Box", ["low", "high", "label"])
ORIGIN = Point(3, 4)
WEIGHTS = (0.5, 0.25, (2, 3))


def namedtuple_fields(out, p, box):
    out[0] = p.x * 10 + p.y
    out[1] = p[0] + p[1]
    out[2] = box.high.x - box.low.x + box.label
    out[3] = ORIGIN.x * ORIGIN[1]
    out[4] = WEIGHTS[0] + WEIGHTS[1] + WEIGHTS[2][1]


def test_namedtuple_arguments_and_globals(jit):
    out = np.zeros(5)
    jit(namedtuple_fields)[1, 1](out, Point(1.5, 2), Box(Point(1, 2), Point(7, 9), 100))
    np.testing.assert_array_equal(out, [17.0, 3.5, 106, 12, 3.75])


def test_namedtuple_fields_are_part_of_the_key(jit):
    Other = collections.namedtuple("Other", ["y", "x"])

    def first_field(out, p):
        out[0] = p.x

    kernel = jit(first_field)
    out = np.zeros(1)
    kernel[1, 1](out, Point(1, 2))
    assert out[0] == 1
    kernel[1, 1](out, Other(1, 2))
    assert out[0] == 2


def closure_kernel_factory(offsets):
    def kernel(out):
        for i, d in enumerate(offsets):
            out[i] = d

    return kernel


def test_tuple_closure_constant(jit):
    out = np.zeros(3)
    jit(closure_kernel_factory((1, 2.5, True)))[1, 1](out)
    np.testing.assert_array_equal(out, [1, 2.5, 1])


@kaji.jit(device=True)
def divmod_pair(a, b):
    return a // b, (a % b, a / b)


@kaji.jit(device=True)
def swap(t):
    return t[1], t[0]


def device_tuples(out, a, b):
    q, (r, f) = divmod_pair(a, b)
    out[0] = q
    out[1] = r
    out[2] = f
    s = swap((a, 2.5))
    out[3] = s[0]
    out[4] = s[1]
    total = 0.0
    for k in range(3):
        x, y = swap((k, total))
        total = x + y + 1
    out[5] = total


def test_device_functions_take_and_return_tuples(jit):
    out = np.zeros(6)
    jit(device_tuples)[1, 1](out, 17, 5)
    total = 0.0
    for k in range(3):
        total = k + total + 1
    np.testing.assert_array_equal(out, [17 // 5, 17 % 5, 17 / 5, 2.5, 17, total])


@kaji.jit(device=True)
def midpoint(a, b):
    return Point((a.x + b.x) / 2, y=(a.y + b.y) / 2)


def build_namedtuples(out, x):
    p = Point(x, 2 * x)
    q = Point(y=1.0, x=3.0)
    m = midpoint(p, q)
    out[0] = m.x
    out[1] = m[1]
    out[2] = p == (x, 2 * x)


def test_build_namedtuple_in_kernel_and_return_it(jit):
    out = np.zeros(3)
    jit(build_namedtuples)[1, 1](out, 5)
    np.testing.assert_array_equal(out, [(5 + 3.0) / 2, (10 + 1.0) / 2, True])


def missing_field(out):
    p = Point(1)
    out[0] = p.x


def test_namedtuple_missing_field_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError, match="Point\\(\\) missing required argument 'y'"):
        jit(missing_field)[1, 1](np.zeros(1))
