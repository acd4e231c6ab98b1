"""kaji.const.array_like: a global numpy array copied into the kernel as constant memory."""

import numpy as np
import pytest

import kaji
from kaji import cuda

WEIGHTS = np.array([0.25, 0.5, 0.25], dtype=np.float32)
TABLE = np.arange(12, dtype=np.int64).reshape(3, 4) * 7
FLAGS = np.array([True, False, True])
HUGE = np.zeros(20_000, dtype=np.float64)
COMPLEX64 = (np.arange(60, dtype=np.complex64).reshape(3, 4, 5) + 1j) / 2j
COMPLEX128 = np.array([1 + 2j, -0.5j, np.inf - 1j, complex(np.nan, 3)], dtype=np.complex128)
EMPTY = np.array([])
EMPTY_RECORDS = np.array([], dtype=[("x", np.float64), ("y", np.int64)])
SCALAR = np.array(2.5)


def smooth(out, x):
    i = kaji.grid(1)
    w = kaji.const.array_like(WEIGHTS)
    if 0 < i < x.size - 1:
        out[i] = w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[i + 1]


def test_constant_weights(jit):
    x = np.random.default_rng(30).standard_normal(500).astype(np.float32)
    out = np.zeros_like(x)
    jit(smooth)[4, 128](out, x)
    expected = np.float32(0.25) * x[:-2] + np.float32(0.5) * x[1:-1] + np.float32(0.25) * x[2:]
    np.testing.assert_allclose(out[1:-1], expected, rtol=1e-6)


def lookup(out):
    t = cuda.const.array_like(TABLE)
    flags = cuda.const.array_like(FLAGS)
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = t[i % 3, i % 4] + flags[i % 3] + t.shape[1] * 1000


def test_two_dimensional_and_bool_tables(jit):
    out = np.zeros(50, dtype=np.int64)
    jit(lookup)[1, 64](out)
    i = np.arange(50)
    np.testing.assert_array_equal(out, TABLE[i % 3, i % 4] + FLAGS[i % 3] + 4000)


def closure_kernel(values):
    def kernel(out):
        c = kaji.const.array_like(values)
        out[kaji.threadIdx.x] = c[kaji.threadIdx.x]
    return kernel


def test_closure_arrays_and_f_ordered_sources(jit):
    values = np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3)).ravel(order="F")
    out = np.zeros(6)
    jit(closure_kernel(values))[1, 6](out)
    np.testing.assert_array_equal(out, values)


def writes_constant(out):
    c = kaji.const.array_like(WEIGHTS)
    c[0] = 1.0
    out[0] = c[0]


def writes_global_directly(out):
    WEIGHTS[0] = 1.0


def too_big(out):
    c = kaji.const.array_like(HUGE)
    out[0] = c[0]


def zero_dimensional(out):
    c = kaji.const.array_like(SCALAR)
    out[0] = 1.0


def not_an_array(out):
    c = kaji.const.array_like(out)
    out[0] = c[0]


@pytest.mark.parametrize("kernel, error, message", [
    (writes_constant, kaji.CompileError, "cannot assign to 'c\\[0\\]': an element of a constant"),
    (writes_global_directly, kaji.CompileError, "an element of a constant"),
    (too_big, kaji.CompileError, "'HUGE' is 160000 bytes; constant memory holds 65536"),
    (zero_dimensional, kaji.CompileError, "'SCALAR' is 0-dimensional; a constant array needs"),
    (not_an_array, kaji.CompileError, "a global or closure variable of the kernel, not"),
], ids=["store", "direct-store", "too-big", "0-d", "argument"])
def test_misuse_is_a_clear_error(jit, kernel, error, message):
    with pytest.raises(error, match=message):
        jit(kernel)[1, 1](np.zeros(1))


def complex_tables(out64, out128):
    c = kaji.const.array_like(COMPLEX64)
    i, j, k = kaji.threadIdx.x, kaji.threadIdx.y, kaji.threadIdx.z
    out64[i, j, k] = c[i, j, k]
    if i + j + k == 0:
        for n in range(COMPLEX128.size):
            out128[n] = COMPLEX128[n] * 2


def test_complex_tables(jit):
    out64 = np.zeros_like(COMPLEX64, order="F")
    out128 = np.zeros_like(COMPLEX128)
    jit(complex_tables)[1, (3, 4, 5)](out64, out128)
    np.testing.assert_array_equal(out64, COMPLEX64)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(out128, COMPLEX128 * 2)


def empty_tables(out):
    a = kaji.const.array_like(EMPTY)
    r = kaji.const.array_like(EMPTY_RECORDS)
    out[0] = len(a)
    out[1] = r.size
    out[2] = a.shape[0] + 7


def test_empty_tables_have_no_elements(jit):
    out = np.full(3, -1, dtype=np.int64)
    jit(empty_tables)[1, 1](out)
    np.testing.assert_array_equal(out, [0, 0, 7])


# Numba freezes a global numpy array a kernel names into the kernel, as a constant (the
# documentation's "globals" example): kaji makes it a constant array, named alone or through
# const.array_like alike.

def reads_global_directly(out):
    i = kaji.grid(1)
    if i < WEIGHTS.size:
        out[i] = WEIGHTS[i] * 2 + WEIGHTS.shape[0]


def test_a_global_array_named_alone_is_a_constant_array(jit):
    out = np.zeros(WEIGHTS.size)
    jit(reads_global_directly)[1, 32](out)
    np.testing.assert_array_equal(out, WEIGHTS * 2 + WEIGHTS.size)


def test_a_global_array_is_frozen_when_the_kernel_compiles(jit):
    table = np.arange(4, dtype=np.float64)

    def kernel(out):
        for i in range(table.size):
            out[i] = table[i]

    compiled = jit(kernel)
    out = np.zeros(4)
    compiled[1, 1](out)
    table[:] = -1
    compiled[1, 1](out)
    np.testing.assert_array_equal(out, [0, 1, 2, 3])
