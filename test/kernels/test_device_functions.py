"""Device functions (`@kaji.jit(device=True)`, `@cuda.jit(device=True)`): values, early
returns, void functions writing arrays, calls between device functions, specialisation on
several argument types, default arguments, and module-level constants."""

import numpy as np
import pytest

import kaji
from kaji import cuda

SCALE = 3
OFFSET = -2.5
LIMIT = 100
ENABLED = True
HALF = np.float32(0.5)


@kaji.jit(device=True)
def square(v):
    return v * v


@kaji.jit(device=True)
def sum_of_squares(a, b):
    return square(a) + square(b)


@kaji.jit(device=True)
def hypotenuse_squared_plus_one(a, b):
    return sum_of_squares(a, b) + 1


@kaji.jit(device=True)
def sign(v):
    if v > 0:
        return 1
    elif v < 0:
        return -1
    return 0


@kaji.jit(device=True)
def first_index_above(x, threshold):
    for j in range(x.size):
        if x[j] > threshold:
            return j
    return -1


@kaji.jit(device=True)
def store_pair(out, i, a, b):
    out[i, 0] = a
    out[i, 1] = b


@kaji.jit(device=True)
def clamp(v, lo=0.0, hi=1.0):
    return min(max(v, lo), hi)


@kaji.jit(device=True)
def scaled(v):
    return v * SCALE + OFFSET


@cuda.jit(device=True)
def numba_cube(v):
    return v * v * v


def call_square(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = square(x[i])


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_device_function_returns_value(jit, dtype):
    x = np.arange(-500, 500).astype(dtype)
    out = np.zeros_like(x)
    jit(call_square)[8, 128](out, x)
    np.testing.assert_array_equal(out, x * x)


def call_nested(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = hypotenuse_squared_plus_one(x[i], y[i])


def test_device_function_calls_device_functions(jit):
    x = np.linspace(-3, 3, 1000)
    y = np.linspace(5, -5, 1000)
    out = np.zeros_like(x)
    jit(call_nested)[8, 128](out, x, y)
    # `a*b + c` may contract to an FMA on both targets (docs/codegen.md, docs/cpu-backend.md),
    # which rounds once instead of twice: equal to a few ulps, not bit for bit.
    np.testing.assert_allclose(out, (x * x + y * y) + 1, rtol=4e-16, atol=0)


def call_sign(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = sign(x[i])


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float64])
def test_early_returns_in_device_function(jit, dtype):
    x = np.arange(-50, 50).astype(dtype)
    out = np.full(x.size, 7, dtype=np.int64)
    jit(call_sign)[1, 128](out, x)
    np.testing.assert_array_equal(out, np.sign(x).astype(np.int64))


def call_search(out, x, thresholds):
    i = kaji.grid(1)
    if i < thresholds.size:
        out[i] = first_index_above(x, thresholds[i])


def test_return_from_inside_loop_of_device_function(jit):
    x = np.arange(0, 100, 2, dtype=np.float32)
    thresholds = np.linspace(-10, 120, 64).astype(np.float32)
    out = np.zeros(64, dtype=np.int64)
    jit(call_search)[1, 64](out, x, thresholds)
    expected = []
    for t in thresholds.tolist():
        above = np.nonzero(x > t)[0]
        expected.append(above[0] if above.size else -1)
    np.testing.assert_array_equal(out, expected)


def call_store(out, x):
    i = kaji.grid(1)
    if i < x.size:
        store_pair(out, i, x[i], -x[i])


def test_void_device_function_writes_array(jit):
    x = np.arange(300, dtype=np.int32)
    out = np.zeros((300, 2), dtype=np.int32)
    jit(call_store)[3, 128](out, x)
    np.testing.assert_array_equal(out, np.stack([x, -x], axis=1))


def call_two_specialisations(out, xi, xf):
    i = kaji.grid(1)
    if i < xi.size:
        out[0, i] = square(xi[i]) + square(2)
        out[1, i] = square(xf[i]) + square(0.5)


def test_device_function_specialised_on_several_types(jit):
    xi = np.arange(100, dtype=np.int64)
    xf = np.arange(100, dtype=np.float64) + 0.25
    out = np.zeros((2, 100), dtype=np.float64)
    jit(call_two_specialisations)[1, 128](out, xi, xf)
    np.testing.assert_array_equal(out[0], xi * xi + 4)
    np.testing.assert_array_equal(out[1], xf * xf + 0.25)


def call_weak_literal(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = square(x[i]) * square(1.1)


def test_literal_arguments_stay_weak_in_device_functions(jit):
    x = np.linspace(-4, 4, 100).astype(np.float32)
    out = np.zeros(100, dtype=np.float64)
    jit(call_weak_literal)[1, 128](out, x)
    # square(1.1) is specialised on a weak float64 but, as every device-function result, its
    # result is strong (docs/sema.md, "Weak values"): float64, which promotes the product.
    strong_result = 1.1 * 1.1
    np.testing.assert_array_equal(out, (x * x).astype(np.float64) * strong_result)


def call_clamp(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = clamp(x[i])
        out[1, i] = clamp(x[i], -0.5)
        out[2, i] = clamp(x[i], -0.5, 0.75)
        out[3, i] = clamp(x[i], hi=0.25)


def test_device_function_default_and_keyword_arguments(jit):
    x = np.linspace(-2, 2, 100)
    out = np.zeros((4, 100))
    jit(call_clamp)[1, 128](out, x)
    np.testing.assert_array_equal(out, np.array([np.clip(x, 0, 1), np.clip(x, -0.5, 1),
                                                 np.clip(x, -0.5, 0.75), np.minimum(np.maximum(x, 0), 0.25)]))


def use_constants(out, x):
    i = kaji.grid(1)
    if i < x.size and ENABLED:
        v = scaled(x[i])
        if v > LIMIT:
            v = LIMIT
        out[i] = v


def test_module_level_constants_in_kernels_and_device_functions(jit):
    x = np.linspace(-100, 100, 1000)
    out = np.zeros_like(x)
    jit(use_constants)[8, 128](out, x)
    np.testing.assert_array_equal(out, np.minimum(x * SCALE + OFFSET, LIMIT))


def use_numpy_constant(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * HALF + SCALE


def test_numpy_scalar_constant_keeps_its_type(jit):
    x = np.linspace(-3, 3, 1000).astype(np.float32)
    out = np.zeros(1000, dtype=np.float64)
    jit(use_numpy_constant)[8, 128](out, x)
    np.testing.assert_array_equal(out, (x * HALF + SCALE).astype(np.float64))


def use_numpy_constant_f64(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * WIDE


WIDE = np.float64(1.1)


def test_float64_numpy_constant_promotes_float32(jit):
    x = np.linspace(-3, 3, 1000).astype(np.float32)
    out = np.zeros(1000, dtype=np.float64)
    jit(use_numpy_constant_f64)[8, 128](out, x)
    np.testing.assert_array_equal(out, x.astype(np.float64) * 1.1)


def call_numba_device(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = numba_cube(x[i])


def test_numba_spelling_device_function(target):
    x = np.arange(-100, 100, dtype=np.int64)
    out = np.zeros_like(x)
    cuda.jit(target=target)(call_numba_device)[2, 128](out, x)
    np.testing.assert_array_equal(out, x ** 3)


def closure_kernel_factory(factor):
    def scale_by_closure(out, x):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = x[i] * factor
    return scale_by_closure


def test_nested_kernel_with_closure_constant(jit):
    x = np.arange(1000, dtype=np.int64)
    out = np.zeros_like(x)
    jit(closure_kernel_factory(7))[8, 128](out, x)
    np.testing.assert_array_equal(out, x * 7)


@kaji.jit(["(int64, int64)", "(float64, float64)"], device=True)
def add_either(x, y):
    return x + y


@kaji.jit((kaji.float32, kaji.float32), device=True)
def add_float32(x, y):
    return x + y


def signatures_without_results(out, a, b):
    out[0] = add_either(a, b)
    out[1] = add_either(2.5, 0.5)
    out[2] = add_float32(a, b)


def test_signatures_without_a_result_type_return_what_the_function_computes(jit):
    # Numba's rule: "(int64, int64)" and a tuple of argument types give the arguments alone.
    out = np.zeros(3)
    jit(signatures_without_results)[1, 1](out, 1, 2)
    assert list(out) == [3.0, 3.0, 3.0]
