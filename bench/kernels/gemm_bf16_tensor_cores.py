"""C = A @ B on the tensor cores, bfloat16 inputs and float32 result: the kernel of
examples/gemm_tensor_cores.py (cuda.wmma fragments, cuda.pipeline's asynchronous copies into
three shared stages), defined anew from the example's file; numba-cuda has no tensor cores.
The inputs are small integers, so every product and sum is exact and all sides must agree to
the bit."""

import pathlib
import runpy

import ml_dtypes
import numpy as np
from problem import Problem

_EXAMPLE = runpy.run_path(
    str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "gemm_tensor_cores.py"))
gemm_bf16_tensor_cores = _EXAMPLE["gemm"]
TILE, THREADS, SHARED_BYTES = _EXAMPLE["TILE"], _EXAMPLE["THREADS"], _EXAMPLE["SHARED_BYTES"]


def problem(rng, full):
    n = 4096 if full else 256  # a multiple of TILE
    a, b = (rng.integers(-4, 5, (n, n)).astype(ml_dtypes.bfloat16) for _ in range(2))
    return Problem(
        grid=(n // TILE, n // TILE), block=(THREADS,), shared_bytes=SHARED_BYTES,
        args=[a, b, np.zeros((n, n), np.float32)], outputs=(2,),
        cuda_c_args=lambda a, b, c: [a, b, c, np.int32(n)],
        reference=lambda a, b, c: [a.astype(np.float32) @ b.astype(np.float32)], rtol=0.0,
        numba=False)
