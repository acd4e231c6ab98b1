"""numpy's ufuncs that are Python's operators on numbers (np.add, np.greater, np.left_shift,
...) and those made of them (np.logical_and, np.square, np.reciprocal, np.sign, np.deg2rad,
np.rint, ...), called on the elements of arrays in a kernel, against numpy's own ufunc on the
same arrays: the value, stored in an array of numpy's result type, must be numpy's exactly
(floats to the last bit, NaN where numpy's is NaN). Then ufuncs on whole arrays with an
output array, as Numba's CUDA target has them."""

import warnings

import numpy as np
import pytest

import kaji

N = 64
rng = np.random.default_rng(20261128)


def binary_kernel(ufunc):
    def kernel(out, a, b):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = ufunc(a[i], b[i])

    return kernel


def unary_kernel(ufunc):
    def kernel(out, x):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = ufunc(x[i])

    return kernel


def values(dtype, nonzero=False, shift=False):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        v = rng.integers(0, 2, N).astype(np.bool_)
        return np.ones(N, np.bool_) if nonzero else v
    if shift:  # shift amounts: 0 up to past the width, as numpy's and kaji's agree there
        return rng.integers(0, dtype.itemsize * 8 + 4, N).astype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, N, endpoint=True, dtype=dtype)
        v[:8] = [min(c, info.max) for c in (0, 1, 2, 3, 5, 7, 100, info.max)]
    else:
        v = (rng.standard_normal(N) * 100).astype(dtype)
        v[:6] = [0.0, -0.0, 1.5, -2.5, np.inf, np.nan]
    if nonzero:
        v[v == 0] = 3
    return v


def expect_same(out, expected):
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)


ARITHMETIC = [np.add, np.subtract, np.multiply, np.divide, np.true_divide, np.floor_divide,
              np.remainder, np.mod]
COMPARISONS = [np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal]
LOGICAL = [np.logical_and, np.logical_or, np.logical_xor]
BITWISE = [np.bitwise_and, np.bitwise_or, np.bitwise_xor]
SHIFTS = [np.left_shift, np.right_shift]
PAIRS = [(np.int8, np.int8), (np.uint8, np.int8), (np.int16, np.uint32), (np.int64, np.int64),
         (np.uint64, np.uint64), (np.int32, np.float32), (np.float32, np.float32),
         (np.float32, np.float64), (np.bool_, np.int16)]
INTEGER_PAIRS = [(a, b) for a, b in PAIRS if np.dtype(a).kind in "biu" and np.dtype(b).kind in "biu"]


def run_binary(jit, ufunc, a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ufunc(a, b)
    out = np.zeros_like(expected)
    jit(binary_kernel(ufunc))[1, N](out, a, b)
    expect_same(out, expected)


@pytest.mark.parametrize("ufunc", ARITHMETIC, ids=lambda u: u.__name__)
@pytest.mark.parametrize("types", PAIRS, ids=lambda t: f"{np.dtype(t[0])}-{np.dtype(t[1])}")
def test_arithmetic_ufuncs(jit, ufunc, types):
    divides = ufunc not in (np.add, np.subtract, np.multiply)
    a = values(types[0])
    b = values(types[1], nonzero=divides)
    run_binary(jit, ufunc, a, b)


@pytest.mark.parametrize("ufunc", COMPARISONS + LOGICAL, ids=lambda u: u.__name__)
@pytest.mark.parametrize("types", PAIRS, ids=lambda t: f"{np.dtype(t[0])}-{np.dtype(t[1])}")
def test_comparison_and_logical_ufuncs(jit, ufunc, types):
    run_binary(jit, ufunc, values(types[0]), values(types[1]))


@pytest.mark.parametrize("ufunc", BITWISE + SHIFTS, ids=lambda u: u.__name__)
@pytest.mark.parametrize("types", INTEGER_PAIRS,
                         ids=lambda t: f"{np.dtype(t[0])}-{np.dtype(t[1])}")
def test_bitwise_and_shift_ufuncs(jit, ufunc, types):
    if ufunc in SHIFTS and np.dtype(types[0]) == np.bool_:
        pytest.skip("numpy shifts a bool as int8; kaji as int64 (Python's)")
    a = values(types[0])
    b = values(types[1], shift=ufunc in SHIFTS)
    run_binary(jit, ufunc, a, b)


UNARY = {
    np.negative: [np.int8, np.uint16, np.int64, np.float32, np.float64],
    np.positive: [np.int8, np.uint16, np.float32, np.float64],
    np.invert: [np.bool_, np.int8, np.uint32, np.int64],
    np.bitwise_not: [np.bool_, np.uint8],
    np.logical_not: [np.bool_, np.int32, np.float64],
    np.square: [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64],
    np.reciprocal: [np.bool_, np.int8, np.int32, np.uint64, np.float32, np.float64],
    np.sign: [np.int8, np.uint8, np.int64, np.float32, np.float64],
    np.deg2rad: [np.float32, np.float64],
    np.radians: [np.float32, np.float64],
    np.rad2deg: [np.float32, np.float64],
    np.degrees: [np.float32, np.float64],
    np.rint: [np.float32, np.float64],
}


@pytest.mark.parametrize("ufunc,dtype", [(u, d) for u, ds in UNARY.items() for d in ds],
                         ids=lambda p: getattr(p, "__name__", None) or np.dtype(p).name)
def test_unary_ufuncs(jit, ufunc, dtype):
    x = values(dtype, nonzero=ufunc is np.reciprocal and np.dtype(dtype).kind in "iu")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ufunc(x)
    out = np.zeros_like(expected)
    jit(unary_kernel(ufunc))[1, N](out, x)
    expect_same(out, expected)


@pytest.mark.parametrize("ufunc", [np.rint, np.deg2rad, np.rad2deg],
                         ids=lambda u: u.__name__)
def test_integer_arguments_compute_in_float64(jit, ufunc):
    # numpy picks float16 for int8 and float32 for int16; kaji, as Numba's CUDA target and
    # Python, computes every integer in float64.
    x = values(np.int32)
    out = np.zeros(N, np.float64)
    jit(unary_kernel(ufunc))[1, N](out, x)
    np.testing.assert_array_equal(out, ufunc(x.astype(np.float64)))


def test_python_int_literals_take_the_other_operands_type(jit):
    def kernel(out, a):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = np.add(a[i], 200) + np.multiply(3, a[i])

    a = values(np.uint8)
    out = np.zeros(N, np.uint8)
    jit(kernel)[1, N](out, a)
    np.testing.assert_array_equal(out, np.add(a, 200) + np.multiply(3, a))


@pytest.mark.parametrize("ufunc", [np.negative, np.positive, np.sign], ids=lambda u: u.__name__)
def test_bool_is_refused_where_numpy_has_no_bool_loop(jit, ufunc):
    out = np.zeros(N, np.int64)
    with pytest.raises(kaji.CompileError, match=rf"numpy\.{ufunc.__name__}\(\) does not take a "
                                                r"bool"):
        jit(unary_kernel(ufunc))[1, N](out, values(np.bool_))


def test_wrong_argument_count_names_the_count(jit):
    def kernel(out, a):
        out[0] = np.greater(a[0])

    with pytest.raises(kaji.CompileError, match=r"numpy\.greater\(\) takes 2 arguments \(1 given\)"):
        jit(kernel)[1, 1](np.zeros(1, np.bool_), np.zeros(1))


# Ufuncs on arrays: with an output array, the calling thread computes every element of it,
# the inputs broadcast to its shape.

def test_unary_ufunc_into_an_output_array(jit):
    def kernel(x, out):
        np.sin(x, out)

    x = np.linspace(-3, 3, 12).reshape(3, 4)
    out = np.zeros_like(x)
    jit(kernel)[1, 1](x, out)
    np.testing.assert_array_equal(out, np.sin(x))


def test_binary_ufuncs_broadcast_their_inputs_to_the_output(jit):
    def kernel(a, row, out, compared):
        np.add(a, row, out)
        np.greater(row, a, out=compared)

    a = values(np.int32)[:12].reshape(3, 4)
    row = values(np.int32)[:4]
    out = np.zeros((3, 4), np.int64)
    compared = np.zeros((3, 4), np.bool_)
    jit(kernel)[1, 1](a, row, out, compared)
    np.testing.assert_array_equal(out, np.add(a, row).astype(np.int64))
    np.testing.assert_array_equal(compared, np.greater(row, a))


def test_a_number_and_an_extent_of_one_broadcast(jit):
    def kernel(column, out):
        np.multiply(column, 2.5, out)
        np.power(out, 2, out)

    column = np.arange(3, dtype=np.float32).reshape(3, 1)
    out = np.zeros((3, 5), np.float32)
    jit(kernel)[1, 1](column, out)
    expected = np.zeros((3, 5), np.float32)
    np.multiply(column, np.float32(2.5), expected)
    np.power(expected, 2, expected)
    np.testing.assert_array_equal(out, expected)


def test_the_call_returns_its_output_on_local_and_shared_arrays(jit):
    def kernel(x, result):
        local = kaji.local.array(4, np.float64)
        shared = kaji.shared.array(4, np.float64)
        for i in range(4):
            local[i] = x[i]
        doubled = np.add(local, local, shared)
        np.sqrt(doubled, local)
        for i in range(4):
            result[i] = local[i]

    x = np.array([1.0, 2.0, 8.0, 0.5])
    result = np.zeros(4)
    jit(kernel)[1, 1](x, result)
    np.testing.assert_array_equal(result, np.sqrt(x + x))


def test_an_array_without_an_output_is_refused_with_the_reason(jit):
    def kernel(x):
        np.sin(x)

    with pytest.raises(kaji.CompileError, match=r"numpy\.sin\(\) of an array in a kernel needs an "
                                                r"output array after its 1 input"):
        jit(kernel)[1, 1](np.zeros(4))


def test_an_output_numpy_would_not_cast_to_is_refused(jit):
    def kernel(x, out):
        np.sqrt(x, out)

    with pytest.raises(kaji.CompileError, match=r"numpy\.sqrt\(\) computes f64, which numpy does "
                                                r"not cast to its output's i32"):
        jit(kernel)[1, 1](np.zeros(4), np.zeros(4, np.int32))


def test_an_input_of_more_dimensions_than_the_output_is_refused(jit):
    def kernel(x, out):
        np.negative(x, out)

    with pytest.raises(kaji.CompileError, match=r"numpy\.negative\(\) cannot broadcast"):
        jit(kernel)[1, 1](np.zeros((2, 2)), np.zeros(2))
