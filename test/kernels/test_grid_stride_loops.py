"""Grid-stride loops against numpy, launched with more threads than elements, as many, and
fewer. On the cpu target a loop that runs at most once in every thread of a block is decided
so before the loop over the block's threads (docs/cpu-backend.md, "Checked loops vectorise"),
and the copy that iterates runs otherwise: every launch shape must compute the same."""

import numpy as np
import pytest

from kaji import cuda


def grid_stride_saxpy(out, a, x, y):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]


def strided_sums(out, x, step):
    # Each thread sums x[t], x[t + step], ...: once, several times or not at all.
    t = cuda.grid(1)
    if t < out.size:
        total = 0.0
        for i in range(t, x.size, step):
            total += x[i]
        out[t] = total


@pytest.mark.parametrize("blocks, threads, n", [
    (4, 64, 256), (4, 64, 200), (4, 64, 257), (2, 64, 1000), (1, 32, 33), (8, 128, 1)])
def test_grid_stride_saxpy(jit, blocks, threads, n):
    rng = np.random.default_rng(n)
    x, y = rng.random(n), rng.random(n)
    out = np.zeros(n)
    jit(grid_stride_saxpy)[blocks, threads](out, 2.5, x, y)
    # A GPU may contract a * x + y into one fused multiply-add.
    np.testing.assert_allclose(out, 2.5 * x + y, rtol=1e-15)


@pytest.mark.parametrize("n, step", [(100, 100), (100, 64), (100, 150), (100, 7), (64, 1)])
def test_loops_that_run_once_several_times_or_not_at_all(jit, n, step):
    x = np.random.default_rng(step).random(n)
    out = np.full(96, -1.0)
    jit(strided_sums)[3, 32](out, x, np.int64(step))
    expected = np.array([x[t::step].sum() if t < n else 0.0 for t in range(out.size)])
    np.testing.assert_allclose(out, expected, rtol=1e-14)
