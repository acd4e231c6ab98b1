"""float32 tanh under fastmath=True, and cuda.libdevice.fast_tanhf, against numpy: on the
GPU (sm_75 and newer) the hardware's tanh.approx.f32, as CUDA's --use_fast_math and
Numba's fastmath=True give it; its relative error is at most 2**-10.987 (PTX ISA, "tanh").
Without fast math tanh stays libdevice's tanhf, within 2 ulp."""

import math

import numpy as np

from kaji.cuda import libdevice

APPROXIMATE_RTOL = 2.0 ** -10.98
# Where |tanh| is below float32's smallest normal the approximation may flush to zero.
APPROXIMATE_ATOL = 2.0 ** -126


def samples():
    finite = np.concatenate([np.linspace(-12, 12, 2001), np.geomspace(1e-30, 1e3, 500),
                             -np.geomspace(1e-30, 1e3, 500)])
    return np.concatenate([finite, [0.0, -0.0, np.inf, -np.inf]]).astype(np.float32)


def math_tanh(out, x):
    for i in range(x.size):
        out[i] = math.tanh(x[i])


def libdevice_fast_tanhf(out, x):
    for i in range(x.size):
        out[i] = libdevice.fast_tanhf(x[i])


def check(jit, kernel, rtol, atol, **options):
    x = samples()
    out = np.full_like(x, np.nan)
    jit(kernel, **options)[1, 1](out, x)
    expected = np.tanh(x.astype(np.float64))
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=atol)
    assert np.all(np.signbit(out[x != 0]) == np.signbit(x[x != 0]))


def test_fast_math_tanh_is_within_the_approximation_bound(jit):
    check(jit, math_tanh, APPROXIMATE_RTOL, APPROXIMATE_ATOL, fastmath=True)


def test_libdevice_fast_tanhf_is_within_the_approximation_bound(jit):
    check(jit, libdevice_fast_tanhf, APPROXIMATE_RTOL, APPROXIMATE_ATOL)


def test_tanh_without_fast_math_is_within_two_ulp(jit):
    check(jit, math_tanh, 2 * 2.0 ** -23, 0.0)


def test_fast_math_tanh_of_nan_is_nan(jit):
    x = np.float32([np.nan, -np.nan])
    out = np.zeros_like(x)
    jit(math_tanh, fastmath=True)[1, 1](out, x)
    assert np.all(np.isnan(out))
