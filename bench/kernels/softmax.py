"""Softmax of each row of a float32 matrix: one block per row, shared-memory trees for the
row's maximum and sum."""

import math

import numpy as np
from kaji import cuda
from problem import Problem

THREADS = 256
ONE = np.float32(1)


@cuda.jit
def softmax(out, x):
    partial = cuda.shared.array(THREADS, np.float32)
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    cols = x.shape[1]
    largest = x[row, tid]
    for j in range(tid + THREADS, cols, THREADS):
        largest = max(largest, x[row, j])
    partial[tid] = largest
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if tid < step:
            partial[tid] = max(partial[tid], partial[tid + step])
        cuda.syncthreads()
        step //= 2
    largest = partial[0]
    cuda.syncthreads()
    total = np.float32(0)
    for j in range(tid, cols, THREADS):
        e = math.exp(x[row, j] - largest)
        out[row, j] = e
        total += e
    partial[tid] = total
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if tid < step:
            partial[tid] += partial[tid + step]
        cuda.syncthreads()
        step //= 2
    scale = ONE / partial[0]
    for j in range(tid, cols, THREADS):
        out[row, j] *= scale


def reference(out, x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return [e / e.sum(axis=1, keepdims=True)]


def problem(rng, full):
    rows, cols = (8192, 1024) if full else (20, 1000)  # cols >= THREADS
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    return Problem(
        grid=(rows,), block=(THREADS,),
        args=[np.zeros((rows, cols), np.float32), x], outputs=(0,),
        cuda_c_args=lambda out, x: [out, x, np.int32(cols)],
        reference=reference, rtol=1e-4, atol=1e-7)
