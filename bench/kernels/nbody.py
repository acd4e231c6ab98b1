"""All-pairs gravitational accelerations in float32: every body against every body, softened."""

import math

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
SOFTENING_SQUARED = np.float32(1e-2)
ONE = np.float32(1)


@cuda.jit
def nbody(accel, pos):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        xi = pos[i, 0]
        yi = pos[i, 1]
        zi = pos[i, 2]
        ax = np.float32(0)
        ay = np.float32(0)
        az = np.float32(0)
        for j in range(pos.shape[0]):
            dx = pos[j, 0] - xi
            dy = pos[j, 1] - yi
            dz = pos[j, 2] - zi
            inverse = ONE / math.sqrt(dx * dx + dy * dy + dz * dz + SOFTENING_SQUARED)
            strength = pos[j, 3] * inverse * inverse * inverse
            ax += dx * strength
            ay += dy * strength
            az += dz * strength
        accel[i, 0] = ax
        accel[i, 1] = ay
        accel[i, 2] = az


def reference(accel, pos):
    p = pos.astype(np.float64)
    d = p[None, :, :3] - p[:, None, :3]
    inverse = 1.0 / np.sqrt((d * d).sum(axis=2) + float(SOFTENING_SQUARED))
    return [(d * (p[None, :, 3] * inverse ** 3)[:, :, None]).sum(axis=1)]


def problem(rng, full):
    n = 16384 if full else 300
    pos = rng.random((n, 4), dtype=np.float32)
    return Problem(
        grid=((n + THREADS - 1) // THREADS,), block=(THREADS,),
        args=[np.zeros((n, 3), np.float32), pos], outputs=(0,),
        cuda_c_args=lambda accel, pos: [accel, pos, np.int32(n)],
        reference=reference, rtol=1e-3, atol=1e-2)
