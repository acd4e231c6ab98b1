"""Escape-time Mandelbrot in float32: iterations per pixel, up to max_iter."""

import numpy as np
from kaji import cuda
from problem import Problem

BLOCK_X, BLOCK_Y = 32, 8
ESCAPE = np.float32(4)


@cuda.jit
def mandelbrot(image, x_min, y_min, step, max_iter):
    col, row = cuda.grid(2)
    if row < image.shape[0] and col < image.shape[1]:
        c_re = x_min + np.float32(col) * step
        c_im = y_min + np.float32(row) * step
        z_re = np.float32(0)
        z_im = np.float32(0)
        n = 0
        while n < max_iter and z_re * z_re + z_im * z_im <= ESCAPE:
            next_re = z_re * z_re - z_im * z_im + c_re
            z_im = (z_re + z_re) * z_im + c_im
            z_re = next_re
            n += 1
        image[row, col] = n


def reference(image, x_min, y_min, step, max_iter):
    rows, cols = image.shape
    c = (x_min + np.arange(cols, dtype=np.float32) * step)[None, :] + \
        1j * (y_min + np.arange(rows, dtype=np.float32) * step)[:, None]
    z = np.zeros_like(c)
    counts = np.zeros(image.shape, np.int32)
    for _ in range(max_iter):
        inside = np.abs(z) ** 2 <= ESCAPE
        counts += inside
        z = np.where(inside, z * z + c, z)
    return [counts]


def problem(rng, full):
    rows, cols = (4096, 4096) if full else (40, 60)
    step = np.float32(3.0 / cols)
    return Problem(
        grid=((cols + BLOCK_X - 1) // BLOCK_X, (rows + BLOCK_Y - 1) // BLOCK_Y),
        block=(BLOCK_X, BLOCK_Y),
        args=[np.zeros((rows, cols), np.int32), np.float32(-2.25), np.float32(-1.5), step,
              np.int32(256)],
        outputs=(0,),
        cuda_c_args=lambda image, x_min, y_min, step, max_iter:
            [image, x_min, y_min, step, max_iter, np.int32(rows), np.int32(cols)],
        # pixels on the set's edge diverge after different counts under different rounding
        # (complex128 reference, fused multiply-adds or not)
        reference=reference, mismatch_fraction=0.01)
