"""A bfloat16 matrix product on Hopper's tensor cores with cuda.wgmma and cuda.pipeline:
c = a @ b, a and b bfloat16, c float32, checked against numpy.

    python examples/gemm_warpgroup.py [N]

The kernel takes b transposed (bt = b.T, n x k, row major), as wgmma reads both matrices along
k. A block of 256 threads (2 warpgroups) computes a 128 x 256 tile of c, each warpgroup a
64 x 256 half of it in one accumulator (128 float32 per thread). Along k the block goes in steps
of 64: the step's 128 x 64 part of a and 256 x 64 part of bt are copied into shared memory by
asynchronous copies of 16 bytes, each row of 64 elements (128 bytes) with its 8 chunks of 16
bytes swizzled (chunk j of row r stored at chunk j ^ (r % 8)), as the tensor cores read it, into
a ring of four stages two steps ahead of the one they multiply. A step is four
wgmma.mma_async of k = 16 in one group; a warpgroup waits for the previous step's group while
the current one runs. The stages take 192 KiB of dynamic shared memory.

It runs on an sm_90 GPU when one is usable and on the CPU otherwise (KAJI_TARGET=cpu|cuda
chooses); N (default 8192 on the GPU, 256 on the CPU) must be a multiple of 256."""

import sys
import time
import warnings

import ml_dtypes
import numpy as np

import kaji
from kaji import cuda
from kaji.cuda import wgmma, wmma

warnings.simplefilter("ignore", kaji.TargetFallbackWarning)

BM, BN, BK = 128, 256, 64  # the block's tile of c, BM x BN; along k per stage
STAGES = 4
THREADS = 256  # two warpgroups, each 64 rows of the tile
ROWS = STAGES * (BM + BN)  # shared rows of BK elements: the stages of a, then those of bt
SHARED_BYTES = ROWS * BK * 2
CHUNK = 8  # bfloat16 per 16-byte copy


@cuda.jit(device=True)
def copy_rows(tiles, start, matrix, row0, k0, rows, thread):
    """Starts the copies of matrix[row0:row0 + rows, k0:k0 + BK] into tiles[start:start + rows],
    each row's 16-byte chunks swizzled, in one group when the caller commits."""
    for chunk in range(thread, rows * (BK // CHUNK), THREADS):
        r, j = chunk // (BK // CHUNK), chunk % (BK // CHUNK)
        cuda.pipeline.memcpy_async(tiles[start + r, (j ^ (r % 8)) * CHUNK:],
                                   matrix[row0 + r, k0 + j * CHUNK:], 16)


@cuda.jit(device=True)
def copy_step(tiles, a, bt, step, row0, column0, thread):
    stage = step % STAGES
    copy_rows(tiles, stage * BM, a, row0, step * BK, BM, thread)
    copy_rows(tiles, STAGES * BM + stage * BN, bt, column0, step * BK, BN, thread)


@cuda.jit
def gemm(a, bt, c):
    tiles = cuda.shared.array(0, ml_dtypes.bfloat16).reshape((ROWS, BK))
    thread = cuda.threadIdx.x
    half = thread // 128  # the warpgroup's rows of the tile: 64 half on
    row0, column0 = cuda.blockIdx.y * BM, cuda.blockIdx.x * BN
    acc = wmma.fragment(wmma.accumulator, 64, BN, 16, np.float32)
    wmma.fill_fragment(acc, 0)
    steps = a.shape[1] // BK
    for step in range(STAGES - 2):
        if step < steps:
            copy_step(tiles, a, bt, step, row0, column0, thread)
        cuda.pipeline.commit()
    for step in range(steps):
        cuda.pipeline.wait_prior(STAGES - 3)  # this step's copies have arrived, in every thread
        cuda.syncthreads()  # ... and the step before last is done in both warpgroups
        stage = step % STAGES
        a_rows = stage * BM + 64 * half
        b_rows = STAGES * BM + stage * BN
        for kk in range(0, BK, 16):
            wgmma.mma_async(acc, tiles[a_rows:a_rows + 64, kk:kk + 16],
                            tiles[b_rows:b_rows + BN, kk:kk + 16])
        wgmma.commit_group()
        ahead = step + STAGES - 2
        if ahead < steps:
            copy_step(tiles, a, bt, ahead, row0, column0, thread)
        cuda.pipeline.commit()
        wgmma.wait_group(1)  # the previous step's products are done: its stage may be refilled
    wgmma.wait_group(0)
    wmma.store_matrix_sync(c[row0 + 64 * half:, column0:], acc, c.shape[1], wmma.mem_row_major)


def launch(a, bt, c):
    """c = a @ bt.T on the device arrays (a m x k, bt n x k; m a multiple of BM, n of BN, k of
    BK)."""
    gemm[(bt.shape[0] // BN, a.shape[0] // BM), THREADS, 0, SHARED_BYTES](a, bt, c)


def main():
    on_gpu = kaji.is_available() and kaji.devices()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else (8192 if on_gpu else 256)
    if n % BN:
        sys.exit(f"N must be a multiple of {BN}, not {n}")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
    da, dbt = cuda.to_device(a), cuda.to_device(np.ascontiguousarray(b.T))
    dc = cuda.device_array((n, n), np.float32)
    launch(da, dbt, dc)
    cuda.synchronize()
    start = time.perf_counter()
    launch(da, dbt, dc)
    cuda.synchronize()
    seconds = time.perf_counter() - start
    expected = a.astype(np.float32) @ b.astype(np.float32)
    error = np.abs(dc.copy_to_host() - expected).max()
    print(f"bf16 GEMM {n}^3 on {'the GPU' if on_gpu else 'the CPU'}: {seconds * 1e3:.2f} ms, "
          f"{2 * n**3 / seconds / 1e12:.3g} TFLOP/s, max |error| {error:.3g}")
    return 0 if error < 1e-2 * np.sqrt(n) else 1


if __name__ == "__main__":
    sys.exit(main())
