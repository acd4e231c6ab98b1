"""Guards of a small constant loop, unrolled on the GPU: each unrolled copy tests `0 <= i + k - R`
and `i + k - R < n` for a constant offset, and the GPU pipeline drops the tests that the
enclosing `i < n` already decides (codegen/llvm/include/kaji/codegen/llvm/OptimizationPipeline.cpp). Every tap at every
edge must still be taken or skipped exactly as the loop says: signals shorter than the filter,
a guard against a different array's length, and offsets reaching past both ends."""

import numpy as np
import pytest

import kaji

RADIUS = 4
TAPS = 2 * RADIUS + 1


def convolve(out, x, weights):
    i = kaji.grid(1)
    if i < x.size:
        acc = 0.0
        for offset in range(-RADIUS, RADIUS + 1):
            j = i + offset
            if j >= 0 and j < x.size:
                acc += weights[offset + RADIUS] * x[j]
        out[i] = acc


def convolve_other_length(out, x, weights):
    # The outer guard is on out, the taps' guard on x: neither decides the other.
    i = kaji.grid(1)
    if i < out.shape[0]:
        out[i] = 0.0
        for k in range(TAPS):
            if 0 <= i + k - RADIUS < x.shape[0]:
                out[i] += weights[k] * x[i + k - RADIUS]


def one_sided(out, x):
    # Taps only to the right, up to twice the radius past i.
    i = kaji.grid(1)
    if i < x.size:
        count = 0
        for k in range(2 * RADIUS + 1):
            if i + k < x.size:
                count += 1
        out[i] = count


def reference(x, weights, length):
    out = np.zeros(length)
    for i in range(length):
        for k in range(TAPS):
            j = i + k - RADIUS
            if 0 <= j < x.size:
                out[i] += weights[k] * x[j]
    return out


def integer_valued(rng, n):
    # Small integers: every sum is exact in float64, so results compare exactly.
    return rng.integers(-8, 9, n).astype(np.float64)


@pytest.mark.parametrize("n", [1, 3, TAPS - 1, TAPS, 100, 257])
def test_taps_at_both_edges(jit, n):
    rng = np.random.default_rng(n)
    x, weights = integer_valued(rng, n), integer_valued(rng, TAPS)
    out = np.full(n, np.nan)
    jit(convolve)[(n + 31) // 32, 32](out, x, weights)
    np.testing.assert_array_equal(out, reference(x, weights, n))


@pytest.mark.parametrize("n_out, n_x", [(10, 3), (3, 10), (50, 40), (40, 50)])
def test_guard_against_another_length(jit, n_out, n_x):
    rng = np.random.default_rng(n_out * 100 + n_x)
    x, weights = integer_valued(rng, n_x), integer_valued(rng, TAPS)
    out = np.full(n_out, np.nan)
    jit(convolve_other_length)[(n_out + 31) // 32, 32](out, x, weights)
    np.testing.assert_array_equal(out, reference(x, weights, n_out))


@pytest.mark.parametrize("n", [1, 5, 64])
def test_one_sided_taps(jit, n):
    out = np.full(n, -1, dtype=np.int64)
    jit(one_sided)[(n + 31) // 32, 32](out, np.zeros(n))
    expected = np.minimum(n - np.arange(n), 2 * RADIUS + 1)
    np.testing.assert_array_equal(out, expected)
