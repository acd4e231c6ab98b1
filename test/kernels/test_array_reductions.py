"""Whole-array reductions inside kernels, as methods and as numpy functions, on arrays and
views, against numpy; copy() of a view with a shape known at compile time into a local
array."""

import numpy as np
import pytest

import kaji


def reductions(out, a):
    out[0] = a.sum()
    out[1] = a.prod()
    out[2] = a.min()
    out[3] = a.max()
    out[4] = a.mean()
    out[5] = a.all()
    out[6] = a.any()


def numpy_reductions(out, a):
    out[0] = np.sum(a)
    out[1] = np.prod(a)
    out[2] = np.min(a)
    out[3] = np.max(a)
    out[4] = np.mean(a)
    out[5] = np.all(a)
    out[6] = np.any(a)
    out[7] = np.amin(a) + np.amax(a)


def expected_reductions(a):
    return [a.sum(), a.prod(), a.min(), a.max(), a.mean(), a.all(), a.any()]


ARRAYS = [
    np.array([1.5, -2.0, 4.0, 0.5], dtype=np.float64),
    np.array([[3, 1, 2], [7, 5, 6]], dtype=np.int32),
    np.array([[1, 2], [3, 0]], dtype=np.uint8),
    np.array([True, True, False]),
    np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4) / 8,
]


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}-{a.ndim}d")
def test_methods_match_numpy(jit, a):
    out = np.zeros(7)
    jit(reductions)[1, 1](out, a)
    np.testing.assert_allclose(out, np.array(expected_reductions(a), dtype=np.float64), rtol=1e-6)


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}-{a.ndim}d")
def test_numpy_functions_match_numpy(jit, a):
    out = np.zeros(8)
    jit(numpy_reductions)[1, 1](out, a)
    expected = expected_reductions(a) + [np.amin(a) + np.amax(a)]
    np.testing.assert_allclose(out, np.array(expected, dtype=np.float64), rtol=1e-6)


def integer_sum_widens(out, a):
    out[0] = a.sum()
    out[1] = a.prod()


def test_sum_and_prod_of_small_integers_are_64_bit(jit):
    a = np.full(4, 200, dtype=np.uint8)
    out = np.zeros(2, dtype=np.int64)
    jit(integer_sum_widens)[1, 1](out, a)
    assert list(out) == [800, 200**4]


def nan_min_max(out, a):
    out[0] = a.min()
    out[1] = a.max()


def test_min_max_propagate_nan(jit):
    a = np.array([1.0, np.nan, -1.0])
    out = np.zeros(2)
    jit(nan_min_max)[1, 1](out, a)
    assert np.isnan(out).all()


def reductions_of_views(out, a):
    out[0] = a[1:, ::2].sum()
    out[1] = a[:, 1].max()
    out[2] = a.T[0].prod()
    out[3] = np.mean(a[::-1, 0])
    row = 0
    for r in a:
        out[4 + row] = r.sum()
        row += 1


def test_reductions_of_views(jit):
    a = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    out = np.zeros(7)
    jit(reductions_of_views)[1, 1](out, a)
    expected = [a[1:, ::2].sum(), a[:, 1].max(), a.T[0].prod(), np.mean(a[::-1, 0])]
    np.testing.assert_allclose(out, expected + list(a.sum(axis=1)))


def empty_sum(out, a):
    out[0] = a[3:].sum()
    out[1] = a[3:].prod()
    out[2] = a[3:].all()
    out[3] = a[3:].any()


def test_empty_reductions_give_the_identity(jit):
    a = np.ones(3, dtype=np.int64)
    out = np.full(4, -1, dtype=np.int64)
    jit(empty_sum)[1, 1](out, a)
    assert list(out) == [0, 1, 1, 0]


def empty_min(out, a):
    out[0] = a[3:].min()


def test_min_of_empty_array_raises_on_cpu(target):
    if target != "cpu":
        pytest.skip("the cpu target checks bounds")
    with pytest.raises(IndexError):
        kaji.jit(target="cpu")(empty_min)[1, 1](np.zeros(1), np.ones(3))


def copy_local(out, a):
    scratch = kaji.local.array((2, 4), np.float32)
    for i in range(2):
        for j in range(4):
            scratch[i, j] = a[i * 4 + j]
    c = scratch[:, 1:3].copy()
    scratch[0, 1] = -1
    for i in range(2):
        for j in range(2):
            out[i, j] = c[i, j]
    d = scratch.copy()
    out[2, 0] = d[0, 1]
    out[2, 1] = d.size


def test_copy_of_static_shape_into_local_array(jit):
    a = np.arange(8, dtype=np.float32)
    out = np.zeros((3, 2), dtype=np.float32)
    jit(copy_local)[1, 1](out, a)
    np.testing.assert_array_equal(out[:2], a.reshape(2, 4)[:, 1:3])
    assert list(out[2]) == [-1, 8]


def copy_parameter(out, a):
    c = a.copy()
    out[0] = c[0]


def test_copy_of_run_time_shape_is_a_compile_error(target):
    kernel = kaji.jit(target=target)(copy_parameter)
    with pytest.raises(kaji.CompileError, match="copy\\(\\) in a kernel makes a local array"):
        kernel[1, 1](np.zeros(1), np.ones(3))


def reduction_with_axis(out, a):
    out[0] = a.sum(0)


def test_reduction_with_axis_is_a_compile_error(target):
    kernel = kaji.jit(target=target)(reduction_with_axis)
    with pytest.raises(kaji.CompileError, match="reduces the whole array"):
        kernel[1, 1](np.zeros(1), np.ones((2, 2)))


def arg_extrema(out, a):
    out[0] = a.argmin()
    out[1] = a.argmax()
    out[2] = np.argmin(a)
    out[3] = np.argmax(a)


@pytest.mark.parametrize("values", [
    np.array([3.0, -1.0, 7.0, -1.0, 7.0]),
    np.array([2.0, np.nan, 5.0, np.nan, -3.0]),
    np.array([np.nan, 1.0, 2.0]),
    np.array([[4, 9, 1], [1, 9, 0]], dtype=np.int32).reshape(2, 3),
    np.array([5, 250, 0, 250], dtype=np.uint8),
    np.array([False, True, True]),
    np.array([1.5, -0.5], dtype=np.float32),
], ids=["ties", "nan", "nan-first", "2d", "uint8", "bool", "float32"])
def test_argmin_and_argmax_give_numpys_flat_index(jit, values):
    out = np.zeros(4, np.int64)
    jit(arg_extrema)[1, 1](out, values)
    expected = [np.argmin(values), np.argmax(values)] * 2
    np.testing.assert_array_equal(out, expected)


def test_argmax_of_a_complex_array_is_refused(jit):
    def kernel(out, a):
        out[0] = a.argmax()

    with pytest.raises(kaji.CompileError,
                       match=r"argmax\(\) of .* is not supported in kernels \(real numbers only\)"):
        jit(kernel)[1, 1](np.zeros(1, np.int64), np.zeros(2, np.complex128))


# Numba-CUDA's arrays for its reduction tests: signed zeros, infinities and NaN.
SPECIAL_ARRAYS = [
    np.float64([1.0, 2.0, 0.0, -0.0, 1.0, -1.5]),
    np.float64([-0.0, -1.5]),
    np.float64([-1.5, 2.5, np.nan]),
    np.float64([-1.5, 2.5, np.inf]),
    np.float64([-1.5, 2.5, -np.inf]),
    np.float64([-1.5, 2.5, np.inf, -np.inf]),
    np.float64([np.nan, -1.5, 2.5, np.nan, 3.0]),
    np.float64([np.nan, -1.5, 2.5, np.nan, np.inf, -np.inf, 3.0]),
    np.float64([5.0, np.nan, -1.5, np.nan]),
    np.float64([np.nan, np.nan]),
]

NAN_AWARE = [np.var, np.std, np.nanmin, np.nanmax, np.nanmean, np.nansum, np.nanprod,
             np.count_nonzero]


def one_reduction(function):
    def kernel(out, a):
        out[0] = function(a)

    return kernel


@pytest.mark.parametrize("function", NAN_AWARE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", SPECIAL_ARRAYS, ids=lambda a: "_".join(map(str, a)))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_var_std_nan_functions_and_count_nonzero_on_special_values(jit, target, function, a):
    out = np.zeros(1)
    jit(one_reduction(function))[1, 1](out, a)
    expected = function(a)
    if function in (np.var, np.std) and target != "cpu" and np.isfinite(expected):
        # The GPU contracts the squares' sum into fused multiply-adds, as nvcc does.
        np.testing.assert_allclose(out[0], expected, rtol=5e-16)
    else:
        np.testing.assert_array_equal(out[0], expected)
    assert np.signbit(out[0]) == np.signbit(expected)


@pytest.mark.parametrize("function", NAN_AWARE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}-{a.ndim}d")
def test_var_std_nan_functions_and_count_nonzero_match_numpy(jit, function, a):
    expected = np.asarray(function(a))
    out = np.zeros(1, expected.dtype)
    jit(one_reduction(function))[1, 1](out, a)
    rtol = 1e-6 if expected.dtype == np.float32 else 1e-14
    np.testing.assert_allclose(out[0], expected, rtol=rtol)


def integer_and_bool_reductions(out, a):
    out[0] = np.var(a)
    out[1] = a.std()
    out[2] = np.nanmean(a)
    out[3] = np.nansum(a)
    out[4] = np.nanprod(a)
    out[5] = np.nanmax(a)
    out[6] = np.count_nonzero(a)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.bool_])
def test_integers_and_bools_compute_as_numpy(jit, dtype):
    # var, std and nanmean in float64; nansum and nanprod in 64-bit integers (100 * 2 * 3 * 100
    # overflows int8).
    a = np.array([100, 2, 3, 100] if dtype != np.bool_ else [1, 0, 1, 1], dtype)
    out = np.zeros(7)
    jit(integer_and_bool_reductions)[1, 1](out, a)
    expected = [np.var(a), np.std(a), np.nanmean(a), np.nansum(a), np.nanprod(a), np.nanmax(a),
                np.count_nonzero(a)]
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def methods(out, a):
    out[0] = a.var()
    out[1] = a.std()


def test_var_and_std_methods_and_views(jit):
    a = np.arange(12, dtype=np.float32).reshape(3, 4) ** 1.5
    out = np.zeros(2, np.float32)
    jit(methods)[1, 1](out, a[::2, 1:])
    np.testing.assert_allclose(out, [a[::2, 1:].var(), a[::2, 1:].std()], rtol=1e-6)


COMPLEX = np.array([1 + 2j, -3 + 0.5j, np.inf + 0j, 2 - 2j])


def complex_reductions(out, a):
    out[0] = a.sum()
    out[1] = np.prod(a)
    out[2] = a.mean()
    out[3] = np.var(a)
    out[4] = a.std()
    out[5] = a.min()
    out[6] = np.nanmax(a)
    out[7] = np.count_nonzero(a)
    out[8] = np.nansum(a)
    out[9] = np.nanmean(a)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("values", [COMPLEX[[0, 1, 3]], COMPLEX,
                                    np.array([complex(np.nan, 1), 2 + 1j, 2 - 1j, 0j])],
                         ids=["finite", "infinite", "nan"])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_reductions_of_complex_arrays(jit, dtype, values):
    a = values.astype(dtype)
    out = np.zeros(10, np.complex128)
    jit(complex_reductions)[1, 1](out, a)
    expected = np.array([a.sum(), np.prod(a), a.mean(), np.var(a), a.std(), a.min(),
                         np.nanmax(a), np.count_nonzero(a), np.nansum(a), np.nanmean(a)])
    rtol = 1e-6 if dtype is np.complex64 else 1e-15
    np.testing.assert_allclose(out, expected, rtol=rtol)


def local_and_shared(out, a):
    local = kaji.local.array(4, np.float64)
    shared = kaji.shared.array(4, np.float64)
    for i in range(4):
        local[i] = a[i]
        shared[i] = a[3 - i]
    out[0] = np.nanmax(local)
    out[1] = np.nanmin(shared)
    out[2] = np.var(local)
    out[3] = np.nanmean(shared)
    out[4] = np.count_nonzero(local)


def test_reductions_of_local_and_shared_arrays(jit):
    a = np.array([2.0, np.nan, -1.0, 0.0])
    out = np.zeros(5)
    jit(local_and_shared)[1, 1](out, a)
    np.testing.assert_array_equal(out[[0, 1, 3, 4]], [2.0, -1.0, np.nanmean(a), 3])
    assert np.isnan(out[2])


def empty_nan_reductions(out, a):
    out[0] = np.nansum(a[3:])
    out[1] = np.nanprod(a[3:])
    out[2] = np.count_nonzero(a[3:])
    out[3] = np.var(a[3:])
    out[4] = np.nanmean(a[3:])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_empty_arrays_give_numpys_values(jit):
    a = np.ones(3)
    out = np.full(5, -1.0)
    jit(empty_nan_reductions)[1, 1](out, a)
    empty = a[3:]
    expected = [np.nansum(empty), np.nanprod(empty), np.count_nonzero(empty), np.var(empty),
                np.nanmean(empty)]
    np.testing.assert_array_equal(out, expected)


def test_nan_functions_are_not_array_methods(jit):
    def kernel(out, a):
        out[0] = a.nanmax()

    with pytest.raises(kaji.CompileError, match="has no attribute 'nanmax'"):
        jit(kernel)[1, 1](np.zeros(1), np.ones(3))
