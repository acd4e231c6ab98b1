"""cuda.reduce: tree reductions against functools.reduce / numpy."""

import functools

import numpy as np
import pytest

import kaji
from kaji import cuda


def _sum(a, b):
    return a + b


def _max(a, b):
    return a if a > b else b


@pytest.mark.parametrize("n", [1, 2, 127, 128, 129, 1000, 100_003, 1 << 20])
def test_sum_of_any_length(ufunc_target, n):
    total = cuda.reduce(_sum, target=ufunc_target)
    values = np.arange(n, dtype=np.int64)
    assert total(values) == functools.reduce(lambda a, b: a + b, values.tolist())


def test_max_needs_no_identity(ufunc_target):
    largest = cuda.reduce(target=ufunc_target)(_max)
    values = np.random.default_rng(3).standard_normal(5000).astype(np.float32) - 100
    assert largest(values, init=np.float32(-1e30)) == values.max()


def test_init_is_folded_in(ufunc_target):
    total = cuda.Reduce(_sum, target=ufunc_target)
    assert total(np.ones(10, np.float64), init=5) == 15.0


def test_empty_input_returns_init(ufunc_target):
    total = cuda.reduce(_sum, target=ufunc_target)
    assert total(np.empty(0, np.float32), init=7) == 7
    assert total(np.arange(10, dtype=np.int32), size=0, init=3) == 3


def test_size_reduces_a_prefix(ufunc_target):
    total = cuda.reduce(_sum, target=ufunc_target)
    values = np.arange(1000, dtype=np.int32)
    assert total(values, size=300) == values[:300].sum()
    with pytest.raises(ValueError, match="size"):
        total(values, size=1001)


def test_device_array_and_res(ufunc_target):
    total = cuda.reduce(_sum, target=ufunc_target)
    host = np.arange(4096, dtype=np.float64)
    values = kaji._core.to_device(host, stream=None, on_host=ufunc_target == "cpu")
    res = kaji._core.device_array((1,), np.float64, "C", on_host=ufunc_target == "cpu")
    assert total(values, res=res, init=1) is None
    assert res.copy_to_host()[0] == host.sum() + 1
    with pytest.raises(TypeError, match="res"):
        total(values, res=np.zeros(1))


def test_stream(ufunc_target):
    total = cuda.reduce(_sum, target=ufunc_target)
    stream = kaji.stream() if ufunc_target == "cuda" else 0
    assert total(np.arange(500, dtype=np.int64), stream=stream) == 124750


def test_bad_functions():
    with pytest.raises(TypeError, match="two arguments"):
        cuda.reduce(lambda a: a, target="cpu")
    with pytest.raises(TypeError, match="Python function"):
        cuda.reduce(42, target="cpu")


def test_lambda_as_numba_documents(ufunc_target):
    sum_reduce = cuda.reduce(lambda a, b: a + b, target=ufunc_target)
    values = np.arange(1234, dtype=np.float64)
    assert sum_reduce(values) == values.sum()


def test_error_in_a_lambda_points_at_its_line():
    bad = cuda.reduce(lambda a, b: a + undefined_name, target="cpu")  # noqa: F821
    with pytest.raises(kaji.CompileError, match=r"test_reduce\.py:\d+:\d+: error: name "
                                                r"'undefined_name'"):
        bad(np.arange(10))


def test_lambda_inside_a_call_spanning_lines(ufunc_target):
    product = cuda.reduce(
        lambda x, y: x * y,
        target=ufunc_target)
    # init (0 by default, as Numba's) is folded in: a product needs init=1.
    assert product(np.arange(1, 11, dtype=np.int64), init=1) == 3628800


def test_an_array_of_records_is_a_type_error_naming_its_dtype(ufunc_target):
    points = np.zeros(4, dtype=[("x", np.float32), ("y", np.float32)])
    sum_reduce = cuda.reduce(_sum, target=ufunc_target)
    with pytest.raises(TypeError, match=r"reduce folds arrays of numbers, not of the "
                                        r"structured dtype \[\('x', '<f4'\), \('y', '<f4'\)\]"):
        sum_reduce(points)
    on_device = kaji._core.to_device(points, stream=None, on_host=ufunc_target == "cpu")
    with pytest.raises(TypeError, match="structured dtype"):
        sum_reduce(on_device)
    np.testing.assert_equal(sum_reduce(points["x"].copy()), 0.0)
