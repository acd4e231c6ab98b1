"""numpy's ufuncs on complex numbers that Numba's CUDA target has and that are not plain cmath
names: the inverse trigonometric and hyperbolic functions (np.arcsin is cmath.asin), np.log2,
the order comparisons (np.less ...: numpy's lexicographic order, NaN rules included) and
np.maximum, np.minimum, np.fmax, np.fmin; on numbers and on arrays with an output array,
complex64 and complex128, against numpy on the host. Python's operators `<` ... stay errors on
complex numbers, as in Python and Numba."""

import itertools
import math

import numpy as np
import pytest

import kaji
from test_numpy_operator_ufuncs import binary_kernel, unary_kernel

INF, NAN = math.inf, math.nan
COMPLEX_TYPES = [np.complex64, np.complex128]


def finite_values(dtype):
    """Numba's inputs, points on and off the branch cuts (signed zeros), and random ones."""
    rng = np.random.default_rng(20261128)
    fixed = [-0.5 - 0.5j, 0, 0.5 + 0.5j, 2 + 0j, complex(2, -0.0), -2 + 0j, complex(-2, -0.0),
             3j, -3j, complex(-0.0, 3), 0.25 - 4j, 1e-20 + 1e-20j, 40 + 30j]
    random = (rng.standard_normal(40) * 3 + 1j * rng.standard_normal(40) * 3)
    return np.concatenate([np.array(fixed), random]).astype(dtype)


INVERSE_FUNCTIONS = [np.arcsin, np.arccos, np.arctan, np.arcsinh, np.arccosh, np.arctanh,
                     np.log2]


@pytest.mark.parametrize("dtype", COMPLEX_TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("ufunc", INVERSE_FUNCTIONS, ids=lambda u: u.__name__)
def test_inverse_functions_and_log2_match_numpy(jit, ufunc, dtype):
    x = finite_values(dtype)
    out = np.zeros_like(x)
    jit(unary_kernel(ufunc))[1, 128](out, x)
    with np.errstate(divide="ignore"):
        expected = ufunc(x)
    # A few ulp of the parts' precision, as numpy's and CPython's formulas differ.
    eps = np.finfo(x.real.dtype).eps
    np.testing.assert_allclose(out, expected, rtol=8 * eps, atol=8 * eps)
    # The side of a branch cut follows the sign of the zero part, as numpy's does.
    assert np.all(np.signbit(out.imag[:13]) == np.signbit(expected.imag[:13]))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_log2_is_log_times_log2e_as_numpy_computes_it(jit, target):
    x = finite_values(np.complex128)
    out = np.zeros_like(x)
    jit(unary_kernel(np.log2))[1, 128](out, x)
    # The GPU's log (libdevice's) may differ from the C library's by an ulp.
    np.testing.assert_allclose(out, np.log2(x), rtol=2e-16 if target == "cpu" else 1e-15,
                               atol=0)


def inverse_into_output(out, x):
    np.arcsin(x, out[0])
    np.arccosh(x, out=out[1])
    np.log2(x, out[2])


@pytest.mark.parametrize("dtype", COMPLEX_TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_inverse_functions_into_an_output_array(jit, dtype):
    x = np.array([-0.5 - 0.5j, 0, 0.5 + 0.5j], dtype)
    out = np.zeros((3, 3), dtype)
    jit(inverse_into_output)[1, 1](out, x)
    expected = np.array([np.arcsin(x), np.arccosh(x), np.log2(x)])
    np.testing.assert_allclose(out, expected, rtol=1e-6 if dtype is np.complex64 else 1e-15)


def test_real_inputs_into_a_complex_output(jit):
    def kernel(out, x):
        np.arccos(x, out)

    x = np.array([-0.5, 0.0, 0.5, 2.0])
    out = np.zeros(4, np.complex128)
    jit(kernel)[1, 1](out, x)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(out.real, np.arccos(x).real, rtol=1e-15)


# Parts that exercise the NaN rules: numbers, NaN in either part or both, ties on a part.
PARTS = [complex(1, 2), complex(1, 3), complex(2, -1), complex(NAN, 0), complex(0, NAN),
         complex(1, NAN), complex(NAN, NAN), complex(-0.0, 0), complex(0, -0.0),
         complex(INF, 1), complex(-INF, NAN)]
PAIRS = np.array(list(itertools.product(PARTS, PARTS)))


def same_numbers(out, expected):
    """Equal part by part, NaN matching NaN and each zero its sign."""
    for part in ("real", "imag"):
        got, want = getattr(out, part), getattr(expected, part)
        assert np.array_equal(np.isnan(got), np.isnan(want))
        numbers = ~np.isnan(want)
        assert np.array_equal(got[numbers], want[numbers])
        assert np.array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))


@pytest.mark.parametrize("dtype", COMPLEX_TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("ufunc", [np.less, np.less_equal, np.greater, np.greater_equal,
                                   np.maximum, np.minimum, np.fmax, np.fmin],
                         ids=lambda u: u.__name__)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_order_and_extrema_follow_numpys_order_and_nan_rules(jit, ufunc, dtype):
    a, b = PAIRS[:, 0].astype(dtype), PAIRS[:, 1].astype(dtype)
    expected = ufunc(a, b)
    out = np.zeros_like(expected)
    jit(binary_kernel(ufunc))[1, 128](out, a, b)
    same_numbers(out.astype(np.complex128), expected.astype(np.complex128))


def mixed_operands(out, z, x):
    out[0] = np.maximum(z, x)
    out[1] = np.fmin(x, z)
    out[2] = np.greater(z, x)
    out[3] = np.less_equal(1.5, z)
    out[4] = np.minimum(z, 2j)


def test_real_and_complex_operands_promote_to_complex(jit):
    z, x = np.complex64(1.5 - 1j), np.float32(1.5)
    out = np.zeros(5, np.complex128)
    jit(mixed_operands)[1, 1](out, z, x)
    assert list(out) == [np.maximum(z, x), np.fmin(x, z), np.greater(z, x),
                         np.less_equal(1.5, z), np.minimum(z, 2j)]


def comparisons_into_output(out, a, b):
    np.greater(a, b, out[0])
    np.less_equal(a, b, out=out[1])
    np.fmax(a, b, out[2])
    np.minimum(a, b, out[3])


def test_comparisons_and_extrema_into_an_output_array(jit):
    # Numba's test stores the comparisons into an output of the inputs' dtype.
    a = np.array([-0.5 - 0.5j, 0, 0.5 + 0.5j, complex(NAN, 1)])
    b = np.array([-0.5 - 0.25j, 0, 0.5 - 0.5j, 1])
    out = np.zeros((4, 4), np.complex128)
    jit(comparisons_into_output)[1, 1](out, a, b)
    with np.errstate(invalid="ignore"):
        expected = np.array([np.greater(a, b), np.less_equal(a, b), np.fmax(a, b),
                             np.minimum(a, b)]).astype(np.complex128)
    same_numbers(out, expected)


def test_the_operators_stay_errors_on_complex_numbers(jit):
    def kernel(out, a, b):
        out[0] = a[0] < b[0]

    with pytest.raises(kaji.CompileError, match="complex numbers have no order"):
        jit(kernel)[1, 1](np.zeros(1, np.bool_), np.zeros(1, np.complex128),
                          np.zeros(1, np.complex128))


def test_python_max_of_complex_numbers_stays_an_error(jit):
    def kernel(out, a):
        out[0] = max(a[0], a[1])

    with pytest.raises(kaji.CompileError, match=r"max\(\) needs real numbers"):
        jit(kernel)[1, 1](np.zeros(1, np.complex128), np.zeros(2, np.complex128))
