"""A bfloat16 matrix product on the tensor cores with cuda.wmma and cuda.pipeline: c = a @ b,
a and b bfloat16, c float32, checked against numpy.

    python examples/gemm_tensor_cores.py [N]

A block of 128 threads (4 warps) computes a 128 x 128 tile of c, each warp a 64 x 64 part of it
as 4 x 4 accumulator fragments of 16 x 16. Along k the block goes in steps of 64: the step's
128 x 64 part of a and 64 x 128 part of b are copied into shared memory by asynchronous copies
of 16 bytes (8 bfloat16) each, into a ring of three stages, two steps ahead of the one the
tensor cores multiply, so that the copies run while they compute. The shared rows are 8
elements longer than the tiles' so that the fragment loads of neighbouring rows fall into
different memory banks. The stages take 105 KiB of dynamic shared memory.

It runs on the GPU when one is usable and on the CPU otherwise (KAJI_TARGET=cpu|cuda chooses);
N (default 4096 on the GPU, 256 on the CPU) must be a multiple of 128."""

import sys
import time
import warnings

import ml_dtypes
import numpy as np

import kaji
from kaji import cuda
from kaji.cuda import wmma

warnings.simplefilter("ignore", kaji.TargetFallbackWarning)

TILE = 128  # the block's tile of c, TILE x TILE
STEP = 64  # along k per stage
STAGES = 3
THREADS = 128
PAD = 8
A_ROW = STEP + PAD  # elements from one row of a stage's part of a to the next
B_ROW = TILE + PAD
A_STAGE = TILE * A_ROW  # elements of a stage's part of a
B_STAGE = STEP * B_ROW
B_START = STAGES * A_STAGE  # the stages of b follow those of a
SHARED_BYTES = (B_START + STAGES * B_STAGE) * 2
CHUNK = 8  # bfloat16 per 16-byte copy


@cuda.jit(device=True)
def copy_step(shared, a, b, stage, k0, row0, column0, thread):
    """Starts the copies of step k0's parts of a and b into `stage`: 1024 chunks of 16 bytes
    each, 8 per thread, in one group when the caller commits."""
    for chunk in range(thread, TILE * STEP // CHUNK, THREADS):
        r, x = chunk // (STEP // CHUNK), chunk % (STEP // CHUNK) * CHUNK
        cuda.pipeline.memcpy_async(shared[stage * A_STAGE + r * A_ROW + x:],
                                   a[row0 + r, k0 + x:], 16)
    for chunk in range(thread, STEP * TILE // CHUNK, THREADS):
        r, x = chunk // (TILE // CHUNK), chunk % (TILE // CHUNK) * CHUNK
        cuda.pipeline.memcpy_async(shared[B_START + stage * B_STAGE + r * B_ROW + x:],
                                   b[k0 + r, column0 + x:], 16)


@cuda.jit
def gemm(a, b, c):
    shared = cuda.shared.array(0, ml_dtypes.bfloat16, alignment=128)
    thread = cuda.threadIdx.x
    warp = thread // 32
    row0, column0 = cuda.blockIdx.y * TILE, cuda.blockIdx.x * TILE
    warp_row, warp_column = (warp // 2) * 64, (warp % 2) * 64
    fa0 = wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    fa1 = wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    fa2 = wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    fa3 = wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    # acc<i><j>: rows 16 i, columns 16 j of the warp's part of c.
    acc00 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc01 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc02 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc03 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc10 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc11 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc12 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc13 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc20 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc21 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc22 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc23 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc30 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc31 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc32 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc33 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    columns = ((0, (acc00, acc10, acc20, acc30)), (1, (acc01, acc11, acc21, acc31)),
               (2, (acc02, acc12, acc22, acc32)), (3, (acc03, acc13, acc23, acc33)))
    for j, accs in columns:
        for acc in accs:
            wmma.fill_fragment(acc, 0)
    steps = a.shape[1] // STEP
    for stage in range(STAGES - 1):
        if stage < steps:
            copy_step(shared, a, b, stage, stage * STEP, row0, column0, thread)
        cuda.pipeline.commit()
    for step in range(steps):
        cuda.pipeline.wait_prior(STAGES - 2)  # this step's group has arrived, in every thread
        cuda.syncthreads()  # ... and the stage the next copies go to is read by every warp
        ahead = step + STAGES - 1
        if ahead < steps:
            copy_step(shared, a, b, ahead % STAGES, ahead * STEP, row0, column0, thread)
        cuda.pipeline.commit()
        tile_a = (step % STAGES) * A_STAGE + warp_row * A_ROW
        tile_b = B_START + (step % STAGES) * B_STAGE + warp_column
        for kk in range(0, STEP, 16):
            wmma.load_matrix_sync(fa0, shared[tile_a + kk:], A_ROW)
            wmma.load_matrix_sync(fa1, shared[tile_a + 16 * A_ROW + kk:], A_ROW)
            wmma.load_matrix_sync(fa2, shared[tile_a + 32 * A_ROW + kk:], A_ROW)
            wmma.load_matrix_sync(fa3, shared[tile_a + 48 * A_ROW + kk:], A_ROW)
            for j, accs in columns:
                wmma.load_matrix_sync(fb, shared[tile_b + kk * B_ROW + 16 * j:], B_ROW)
                wmma.mma_sync(accs[0], fa0, fb, accs[0])
                wmma.mma_sync(accs[1], fa1, fb, accs[1])
                wmma.mma_sync(accs[2], fa2, fb, accs[2])
                wmma.mma_sync(accs[3], fa3, fb, accs[3])
    row, column = row0 + warp_row, column0 + warp_column
    for j, accs in columns:
        for i, acc in enumerate(accs):
            wmma.store_matrix_sync(c[row + 16 * i:, column + 16 * j:], acc, c.shape[1],
                                   wmma.mem_row_major)


def launch(a, b, c):
    """c = a @ b on the device arrays (square, N a multiple of TILE)."""
    n = a.shape[0]
    gemm[(n // TILE, n // TILE), THREADS, 0, SHARED_BYTES](a, b, c)


def main():
    on_gpu = kaji.is_available() and kaji.devices()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else (4096 if on_gpu else 256)
    if n % TILE:
        sys.exit(f"N must be a multiple of {TILE}, not {n}")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
    da, db = cuda.to_device(a), cuda.to_device(b)
    dc = cuda.device_array((n, n), np.float32)
    launch(da, db, dc)
    cuda.synchronize()
    start = time.perf_counter()
    launch(da, db, dc)
    cuda.synchronize()
    seconds = time.perf_counter() - start
    expected = a.astype(np.float32) @ b.astype(np.float32)
    error = np.abs(dc.copy_to_host() - expected).max()
    print(f"bf16 GEMM {n}^3 on {'the GPU' if on_gpu else 'the CPU'}: {seconds * 1e3:.2f} ms, "
          f"{2 * n**3 / seconds / 1e12:.3g} TFLOP/s, max |error| {error:.3g}")
    return 0 if error < 1e-2 * np.sqrt(n) else 1


if __name__ == "__main__":
    sys.exit(main())
