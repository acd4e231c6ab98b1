"""`a * b ± c` rounds the product and the sum separately on the cpu target, bit for bit as
NumPy; the cuda targets may contract it into one fma, as numba-cuda and nvcc do by default
(docs/sema.md, "Accuracy"). The differential run found `0.0 // 2 - 5e-324 / 2` giving -0.0 on
the cpu target: `w / 2` became `w * 0.5`, contracted with the subtraction."""

from fractions import Fraction

import numpy as np


def allowed(target, separate, fused):
    """The results `target` may give: numpy's separately rounded one, and on cuda also the
    fused one (the exact a * b ± c rounded once)."""
    return [separate] if target == "cpu" else [separate, fused]


def fused_value(a, b, c, dtype):
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    return dtype.type(float(exact))  # exact here: the operands are chosen so it fits dtype


def multiply_add(out, a, b, c):
    for i in range(a.size):
        out[i] = a[i] * b[i] + c[i]


def multiply_add_across_statements(out, a, b, c):
    for i in range(a.size):
        t = a[i] * b[i]
        t += c[i]
        out[i] = t


def floor_half_minus_half(out, x, w):
    out[0] = x[0] // 2 - w[0] / 2  # w / 2 is w * 0.5 in LLVM, a product


def operands(dtype, bits):
    """a * b = 1 - 2**-2bits exactly, which rounds to 1.0 in `dtype`: a * b - 1 is 0 when the
    product is rounded, -2**-2bits when it is not."""
    a = np.array([1 + 2.0 ** -bits], dtype=dtype)
    b = np.array([1 - 2.0 ** -bits], dtype=dtype)
    return a, b, np.array([-1.0], dtype=dtype)


def check(target, jit, kernel, dtype, bits):
    a, b, c = operands(dtype, bits)
    out = np.zeros(1, dtype=dtype)
    jit(kernel)[1, 1](out, a, b, c)
    separate = (a * b + c)[0]
    candidates = allowed(target, separate, fused_value(a[0], b[0], c[0], np.dtype(dtype)))
    assert_one_of(out[0], candidates)


def assert_one_of(value, candidates):
    """`value` is one of `candidates`, with the same sign of zero."""
    assert any(value == v and np.signbit(value) == np.signbit(v) for v in candidates), \
        (value, candidates)


def test_float64_multiply_add(jit, target):
    check(target, jit, multiply_add, np.float64, 27)


def test_float32_multiply_add(jit, target):
    check(target, jit, multiply_add, np.float32, 13)


def test_multiply_add_across_statements(jit, target):
    check(target, jit, multiply_add_across_statements, np.float64, 27)


def test_product_by_a_half_minus(jit, target):
    x = np.array([0.0])
    w = np.array([5e-324])
    out = np.full(1, np.nan)
    jit(floor_half_minus_half)[1, 1](out, x, w)
    separate = (x // 2 - w / 2)[0]
    fused = np.float64(float(Fraction(0) - Fraction(5e-324) / 2))  # -0.0: rounded once
    assert_one_of(out[0], allowed(target, separate, fused))


def test_unoptimised_code_rounds_each_operation(jit, target):
    """opt=False contracts nothing on any target: the product rounds before the sum, as NVVM
    compiles Numba's opt=False."""
    for dtype, bits in ((np.float64, 27), (np.float32, 13)):
        a, b, c = operands(dtype, bits)
        out = np.full(1, np.nan, dtype=dtype)
        jit(multiply_add, opt=False)[1, 1](out, a, b, c)
        assert_one_of(out[0], [(a * b + c)[0]])
