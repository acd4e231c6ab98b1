"""Loops whose trip count is known only at run time, with bodies of a few dozen instructions:
the GPU backend unrolls them by four with a remainder loop (codegen/llvm/src/GPULoopUnrollPolicy.h).
Every thread runs its own trip count, 0 to 13, so one launch takes the unrolled loop alone,
the remainder alone and both, for each remainder length."""

import math

import numpy as np

import kaji


def partial_sums(out, rows, counts):
    i = kaji.grid(1)
    if i < counts.size:
        total = 0
        largest = -(1 << 40)
        for j in range(counts[i]):
            x = rows[j, 0] * rows[j, 1] - rows[j, 2]
            total += x * x + (x // 3) ^ j
            total -= (x % 7) * rows[j, 2]
            largest = max(largest, x - j)
        out[i, 0] = total
        out[i, 1] = largest


def physics(accel, pos, counts):
    i = kaji.grid(1)
    if i < counts.size:
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(counts[i]):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            squared = dx * dx + dy * dy + dz * dz + 1.0
            strength = pos[j, 3] / (squared * math.sqrt(squared))
            ax, ay, az = ax + strength * dx, ay + strength * dy, az + strength * dz
        accel[i, 0], accel[i, 1], accel[i, 2] = ax, ay, az


def test_integer_body_every_trip_count(jit):
    rng = np.random.default_rng(4)
    rows = rng.integers(-50, 50, (13, 3))
    counts = np.arange(14, dtype=np.int64)
    out = np.zeros((14, 2), dtype=np.int64)
    jit(partial_sums)[1, 32](out, rows, counts)
    for i, count in enumerate(counts):
        x = rows[:count, 0] * rows[:count, 1] - rows[:count, 2]
        j = np.arange(count)
        expected_largest = (x - j).max() if count else -(1 << 40)
        terms = ((x * x + x // 3) ^ j) - (x % 7) * rows[:count, 2]
        assert out[i, 0] == terms.sum(), i
        assert out[i, 1] == expected_largest, i


def test_float_body_every_trip_count(jit):
    rng = np.random.default_rng(5)
    pos = rng.integers(-4, 5, (14, 4)).astype(np.float64)
    counts = np.arange(14, dtype=np.int64)
    accel = np.full((14, 3), np.nan)
    jit(physics)[1, 32](accel, pos, counts)
    for i, count in enumerate(counts):
        d = pos[:count, :3] - pos[i, :3]
        strength = pos[:count, 3] / np.sqrt((d * d).sum(axis=1) + 1.0) ** 3
        expected = np.zeros(3)
        for j in range(count):  # in loop order, as the kernel adds
            expected += d[j] * strength[j]
        np.testing.assert_allclose(accel[i], expected, rtol=1e-12, atol=1e-12)
