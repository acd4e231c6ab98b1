"""Numba's cuda.fp16 functions against numpy's float16 arithmetic: the arithmetic rounds once
to float16; the math functions are float32's, rounded to float16; the comparisons are IEEE's
(hne too: false when either operand is NaN, as CUDA's __hne)."""

import numpy as np
import pytest

from kaji import cuda

f16 = np.float16
SPECIALS = [0.0, -0.0, 1.0, -1.5, 0.333, 2.5, 65504.0, -65504.0, 6e-8, np.inf, -np.inf, np.nan]


def operands():
    rng = np.random.default_rng(16)
    a = np.concatenate([SPECIALS, rng.uniform(-40, 40, 200)]).astype(f16)
    b = np.concatenate([SPECIALS[::-1], rng.uniform(-40, 40, 200)]).astype(f16)
    return a, b


def binary_kernel(out, a, b):
    for i in range(a.size):
        out[0, i] = cuda.fp16.hadd(a[i], b[i])
        out[1, i] = cuda.fp16.hsub(a[i], b[i])
        out[2, i] = cuda.fp16.hmul(a[i], b[i])
        out[3, i] = cuda.fp16.hdiv(a[i], b[i])
        out[4, i] = cuda.fp16.hmax(a[i], b[i])
        out[5, i] = cuda.fp16.hmin(a[i], b[i])
        out[6, i] = cuda.fp16.hneg(a[i])
        out[7, i] = cuda.fp16.habs(a[i])
        out[8, i] = cuda.fp16.hrcp(b[i])


def test_arithmetic_rounds_once_to_float16(jit):
    a, b = operands()
    out = np.zeros((9, a.size), f16)
    jit(binary_kernel)[1, 1](out, a, b)
    with np.errstate(all="ignore"):
        expected = [a + b, a - b, a * b, a / b, np.fmax(a, b), np.fmin(a, b), -a, np.abs(a),
                    f16(1) / b]
    for row, want in enumerate(expected):
        both_zero = (out[row] == 0) & (want == 0)
        # fmax/fmin of +0 and -0 may give either zero (docs/sema.md).
        mask = ~both_zero if row in (4, 5) else np.ones(a.size, bool)
        np.testing.assert_array_equal(out[row][mask], want[mask], err_msg=f"row {row}")


def comparison_kernel(out, a, b):
    for i in range(a.size):
        out[0, i] = cuda.fp16.heq(a[i], b[i])
        out[1, i] = cuda.fp16.hne(a[i], b[i])
        out[2, i] = cuda.fp16.hge(a[i], b[i])
        out[3, i] = cuda.fp16.hgt(a[i], b[i])
        out[4, i] = cuda.fp16.hle(a[i], b[i])
        out[5, i] = cuda.fp16.hlt(a[i], b[i])


def test_comparisons_are_ordered(jit):
    a, b = operands()
    out = np.zeros((6, a.size), np.bool_)
    jit(comparison_kernel)[1, 1](out, a, b)
    ordered = ~(np.isnan(a) | np.isnan(b))
    expected = [a == b, (a != b) & ordered, a >= b, a > b, a <= b, a < b]
    for row, want in enumerate(expected):
        np.testing.assert_array_equal(out[row], want, err_msg=f"row {row}")


FUNCTIONS = {
    "hsin": np.sin, "hcos": np.cos, "hlog": np.log, "hlog10": np.log10, "hlog2": np.log2,
    "hexp": np.exp, "hexp10": lambda x: np.power(np.float32(10), x), "hexp2": np.exp2,
    "hsqrt": np.sqrt, "hrsqrt": lambda x: np.float32(1) / np.sqrt(x), "hfloor": np.floor,
    "hceil": np.ceil, "hrint": np.rint, "htrunc": np.trunc,
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_functions_are_float32_rounded_to_float16(jit, name):
    function = getattr(cuda.fp16, name)

    def kernel(out, a):
        for i in range(a.size):
            out[i] = function(a[i])

    a = np.concatenate([SPECIALS, np.linspace(-6, 6, 97), np.linspace(0.01, 11, 50)]).astype(f16)
    out = np.zeros(a.size, f16)
    jit(kernel)[1, 1](out, a)
    with np.errstate(all="ignore"):
        want = FUNCTIONS[name](a.astype(np.float32)).astype(f16)
    # float32 libm/libdevice results may differ by an ulp of float32, which can move the
    # float16 rounding by one float16 ulp.
    np.testing.assert_array_max_ulp(out, want, maxulp=1)


def fma_kernel(out, a, b, c):
    for i in range(a.size):
        out[i] = cuda.fp16.hfma(a[i], b[i], c[i])


def test_fma_is_the_exact_product_sum_rounded(jit):
    a, b = operands()
    c = b[::-1].copy()
    out = np.zeros(a.size, f16)
    jit(fma_kernel)[1, 1](out, a, b, c)
    with np.errstate(all="ignore"):
        want = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(f16)
    np.testing.assert_array_equal(out, want)


def test_other_types_are_a_compile_error(jit):
    from kaji import CompileError

    def kernel(out, a):
        out[0] = cuda.fp16.hadd(a[0], a[0])

    with pytest.raises(CompileError, match=r"cuda.fp16.hadd\(\) takes float16 values, not"):
        jit(kernel)[1, 1](np.zeros(1, np.float32), np.ones(1, np.float32))
