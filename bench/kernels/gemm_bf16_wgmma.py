"""C = A @ Bt.T on Hopper's tensor cores, bfloat16 inputs and float32 result: the kernel of
examples/gemm_warpgroup.py (cuda.wgmma multiplies from shared memory, cuda.pipeline's
asynchronous copies into four swizzled shared stages), defined anew from the example's file;
numba-cuda has no tensor cores. Needs sm_90 (both sides compile for sm_90a). The inputs are
small integers, so every product and sum is exact and all sides must agree to the bit."""

import pathlib
import runpy

import ml_dtypes
import numpy as np
from problem import Problem

_EXAMPLE = runpy.run_path(
    str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "gemm_warpgroup.py"))
gemm_bf16_wgmma = _EXAMPLE["gemm"]
BM, BN, THREADS = _EXAMPLE["BM"], _EXAMPLE["BN"], _EXAMPLE["THREADS"]
SHARED_BYTES = _EXAMPLE["SHARED_BYTES"]


def problem(rng, full):
    n = 4096 if full else 256  # a multiple of BN
    a, bt = (rng.integers(-4, 5, (n, n)).astype(ml_dtypes.bfloat16) for _ in range(2))
    return Problem(
        grid=(n // BN, n // BM), block=(THREADS,), shared_bytes=SHARED_BYTES,
        args=[a, bt, np.zeros((n, n), np.float32)], outputs=(2,),
        cuda_c_args=lambda a, bt, c: [a, bt, c, np.int32(n)],
        reference=lambda a, bt, c: [a.astype(np.float32) @ bt.astype(np.float32).T], rtol=0.0,
        numba=False, architecture_specific=True)
