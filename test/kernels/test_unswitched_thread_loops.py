"""Loops over threads versioned on a condition that does not change in them, against numpy. On
the cpu target a thread's body that holds several loops, chosen between by such a condition,
runs as copies of the loop over threads, one per way the condition goes (docs/cpu-backend.md,
"A choice between loops runs as copies of the threads' loop"); each copy's loop then runs around
the loop over threads. Each kernel here takes one of the ways that can go wrong: the condition
either way, a chain of such conditions (a checked kernel's tests of constant columns, one way an
index error), local arrays each copy must keep its own, and values the loops carry out."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def signed_sums(out, x, add):
    # Two loops, one run by every thread alike: `add` chooses.
    i = cuda.grid(1)
    if i < out.size:
        total = 0.0
        if add:
            for j in range(x.size):
                total += x[j] * (i + 1)
        else:
            for j in range(x.size):
                total -= x[j] + i
        out[i] = total


@pytest.mark.parametrize("add", [True, False])
def test_either_way_of_the_condition(jit, add):
    x = np.random.default_rng(1).random(37)
    out = np.zeros(150)
    jit(signed_sums)[3, 64](out, x, add)
    i = np.arange(150)
    expected = x.sum() * (i + 1) if add else -(x.sum() + 37 * i)
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def column_moments(out, p):
    # Checked, the loop reads four constant columns: LLVM decides their tests outside the loop
    # and keeps a copy of the loop for each way they go.
    i = cuda.grid(1)
    if i < out.shape[0]:
        a = 0.0
        b = 0.0
        for j in range(p.shape[0]):
            w = p[j, 3] / (1.0 + abs(p[j, 0] - p[i, 0]))
            a += w * p[j, 1]
            b += w * p[j, 2]
        out[i, 0] = a
        out[i, 1] = b


def expected_moments(p):
    w = p[None, :, 3] / (1.0 + np.abs(p[None, :, 0] - p[:, None, 0]))
    return np.stack([(w * p[None, :, 1]).sum(axis=1), (w * p[None, :, 2]).sum(axis=1)], axis=1)


def test_a_chain_of_column_tests(jit):
    p = np.random.default_rng(2).random((130, 4))
    out = np.zeros((130, 2))
    jit(column_moments, boundscheck=True)[3, 64](out, p)
    kaji.synchronize()
    np.testing.assert_allclose(out, expected_moments(p), rtol=1e-12)


def test_a_column_out_of_range_still_reports(jit):
    p = np.random.default_rng(3).random((70, 3))
    out = np.zeros((70, 2))
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        jit(column_moments, boundscheck=True)[2, 64](out, p)
        kaji.synchronize()


def windowed(out, x, wide):
    # A local array in both loops: each copy of the loop over threads keeps its own per thread.
    i = cuda.grid(1)
    if i < out.size:
        window = cuda.local.array(4, np.float64)
        for k in range(4):
            window[k] = 0.0
        if wide:
            for j in range(x.size):
                window[j % 4] += x[j] * i
        else:
            for j in range(x.size):
                window[(j + i) % 4] += x[j]
        out[i] = window[0] - window[1] + window[2] * window[3]


@pytest.mark.parametrize("wide", [True, False])
def test_local_arrays_in_each_copy(jit, wide):
    x = np.random.default_rng(4).random(23)
    out = np.zeros(100)
    jit(windowed)[2, 64](out, x, wide)
    expected = np.zeros(100)
    for i in range(100):
        window = np.zeros(4)
        for j in range(23):
            if wide:
                window[j % 4] += x[j] * i
            else:
                window[(j + i) % 4] += x[j]
        expected[i] = window[0] - window[1] + window[2] * window[3]
    np.testing.assert_allclose(out, expected, rtol=1e-12)
