"""cuda.libdevice.NAME with Numba's signatures, against numpy and Python; functions with
outputs return tuples. On the cpu target each has the C library's or kaji's own
implementation, or is a compile error naming it (test/python/test_libdevice_names.py)."""

import math

import numpy as np
import pytest

from kaji import cuda
from kaji.cuda import libdevice


def float_functions(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = libdevice.sinf(x[i])
        out[1, i] = libdevice.expf(x[i])
        out[2, i] = libdevice.fast_expf(x[i])
        out[3, i] = libdevice.rsqrtf(x[i] + 3)
        out[4, i] = libdevice.saturatef(x[i])
        out[5, i] = libdevice.fast_fdividef(x[i], 3)


def test_float32_functions(jit):
    x = np.linspace(-2, 2, 64).astype(np.float32)
    out = np.zeros((6, x.size), dtype=np.float32)
    jit(float_functions)[1, 64](out, x)
    np.testing.assert_allclose(out[0], np.sin(x), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(out[1], np.exp(x), rtol=1e-6)
    # __nv_fast_expf: the GPU's approximation, 2 + 1.16 * |1.16 * x| ulp.
    np.testing.assert_allclose(out[2], np.exp(x), rtol=1e-5)
    np.testing.assert_allclose(out[3], 1 / np.sqrt(x + 3), rtol=1e-6)
    np.testing.assert_array_equal(out[4], np.clip(x, 0, 1))
    np.testing.assert_allclose(out[5], x / np.float32(3), rtol=1e-6)


def double_functions(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = libdevice.atan2(x[i], 0.5)
        out[1, i] = libdevice.cbrt(x[i])
        out[2, i] = libdevice.ldexp(x[i], 3)
        out[3, i] = libdevice.fdim(x[i], 0.25)


def test_float64_functions(jit):
    x = np.linspace(-3, 3, 64)
    out = np.zeros((4, x.size))
    jit(double_functions)[1, 64](out, x)
    np.testing.assert_allclose(out[0], np.arctan2(x, 0.5), rtol=1e-15)
    np.testing.assert_allclose(out[1], np.cbrt(x), rtol=1e-15)
    np.testing.assert_array_equal(out[2], x * 8)
    np.testing.assert_array_equal(out[3], np.maximum(x - 0.25, 0))


def tuple_results(out, ints, x):
    i = cuda.grid(1)
    if i < x.size:
        s, c = libdevice.sincos(x[i])
        m, e = libdevice.frexp(x[i])
        r, q = libdevice.remquo(x[i], 0.75)
        out[0, i] = s
        out[1, i] = c
        out[2, i] = m
        out[3, i] = r
        ints[0, i] = e
        ints[1, i] = q


def test_functions_with_outputs_return_tuples(jit):
    x = np.linspace(-4, 4, 33)
    out = np.zeros((4, x.size))
    ints = np.zeros((2, x.size), dtype=np.int32)
    jit(tuple_results)[1, 64](out, ints, x)
    np.testing.assert_allclose(out[0], np.sin(x), rtol=1e-15, atol=1e-16)
    np.testing.assert_allclose(out[1], np.cos(x), rtol=1e-15, atol=1e-16)
    for i, value in enumerate(x):
        assert (out[2, i], ints[0, i]) == math.frexp(value)
        remainder = math.remainder(value, 0.75)
        assert out[3, i] == remainder
        # remquo's quotient: at least its 3 low bits and its sign (C and libdevice agree).
        quotient = round((value - remainder) / 0.75)
        assert ints[1, i] % 8 == quotient % 8


def integer_functions(out, a, b):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = libdevice.popc(a[i])
        out[1, i] = libdevice.clz(a[i])
        out[2, i] = libdevice.ffs(a[i])
        out[3, i] = libdevice.brev(a[i])
        out[4, i] = libdevice.mulhi(a[i], b[i])
        out[5, i] = libdevice.umulhi(a[i], b[i])
        out[6, i] = libdevice.hadd(a[i], b[i])
        out[7, i] = libdevice.rhadd(a[i], b[i])
        out[8, i] = libdevice.sad(a[i], b[i], 5)
        out[9, i] = libdevice.max(a[i], b[i])
        out[10, i] = libdevice.umin(a[i], b[i])
        out[11, i] = libdevice.abs(a[i])


def test_int32_functions(jit):
    rng = np.random.default_rng(7)
    a = np.concatenate([[0, -1, 1, 2**31 - 1, -2**31],
                        rng.integers(-2**31, 2**31, 59)]).astype(np.int32)
    b = np.concatenate([[5, -1, 2**31 - 1, 3, -2**31],
                        rng.integers(-2**31, 2**31, 59)]).astype(np.int32)
    out = np.zeros((12, a.size), dtype=np.int32)
    jit(integer_functions)[1, 64](out, a, b)

    def wrap(v):  # to int32, as the results are stored
        return (v + 2**31) % 2**32 - 2**31

    for i in range(a.size):
        x, y = int(a[i]), int(b[i])
        ux, uy = x & 0xFFFFFFFF, y & 0xFFFFFFFF
        expected = [bin(ux).count("1"), 32 - ux.bit_length(), (ux & -ux).bit_length(),
                    int(f"{ux:032b}"[::-1], 2), (x * y) >> 32, (ux * uy) >> 32, (x + y) >> 1,
                    (x + y + 1) >> 1, abs(x - y) + 5, max(x, y), min(ux, uy), abs(x)]
        assert list(out[:, i]) == [wrap(v) for v in expected], i


def conversions(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = libdevice.float2int_rn(x[i])
        out[1, i] = libdevice.float2int_rz(x[i])
        out[2, i] = libdevice.float2int_rd(x[i])
        out[3, i] = libdevice.float2int_ru(x[i])
        out[4, i] = libdevice.float_as_int(x[i])


def test_rounding_conversions(jit):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.7, 2.7, 0.0, 1e10, -1e10], dtype=np.float32)
    out = np.zeros((5, x.size), dtype=np.int32)
    jit(conversions)[1, 32](out, x)

    def clip(v):  # the GPU's cvt saturates
        return max(-2**31, min(2**31 - 1, int(v)))

    assert list(out[0]) == [clip(np.rint(v)) for v in x]
    assert list(out[1]) == [clip(np.trunc(v)) for v in x]
    assert list(out[2]) == [clip(np.floor(v)) for v in x]
    assert list(out[3]) == [clip(np.ceil(v)) for v in x]
    np.testing.assert_array_equal(out[4], x.view(np.int32))


def predicates(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = libdevice.isnand(x[i])
        out[1, i] = libdevice.isinfd(x[i])
        out[2, i] = libdevice.isfinited(x[i])
        out[3, i] = libdevice.signbitd(x[i])


def test_predicates_return_int32(jit):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -2.5])
    out = np.zeros((4, x.size), dtype=np.int32)
    jit(predicates)[1, 32](out, x)
    assert list(out[0] != 0) == list(np.isnan(x))
    assert list(out[1] != 0) == list(np.isinf(x))
    assert list(out[2] != 0) == list(np.isfinite(x))
    assert list(out[3] != 0) == list(np.signbit(x))


def cuda_only(out, x):
    out[0] = libdevice.dadd_rd(x[0], x[1])


def test_a_function_without_a_host_implementation_is_a_clear_error(target, jit):
    if target != "cpu":
        pytest.skip("only the cpu target lacks dadd_rd")
    with pytest.raises(Exception, match="cuda.libdevice.dadd_rd has no implementation on the "
                                        "cpu target"):
        jit(cuda_only)[1, 1](np.zeros(1), np.ones(2))
