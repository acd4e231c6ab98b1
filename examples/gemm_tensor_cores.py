"""A bfloat16 matrix product on the tensor cores with cuda.wmma: c = a @ b, a and b bfloat16,
c float32, checked against numpy.

    python examples/gemm_tensor_cores.py [N]

A block of 256 threads (8 warps) computes a 128 x 128 tile of c. For each step of 32 along k
its threads copy the step's 128 x 32 part of a and 32 x 128 part of b into shared memory, two
bfloat16 at a time; each warp then multiplies its 64 x 32 part of the tile as 4 x 2 fragments
of 16 x 16. The shared tiles' rows are 8 elements longer than they need be, so that the
fragment loads of neighbouring rows fall into different memory banks. It runs on the GPU when
one is usable and on the CPU otherwise (KAJI_TARGET=cpu|cuda chooses); N (default 1024 on the
GPU, 256 on the CPU) must be a multiple of 128."""

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
STEP = 32  # along k per shared-memory step
PAD = 8
A_ROW = STEP + PAD  # elements from one row of the shared part of a to the next
B_ROW = TILE + PAD


@cuda.jit
def gemm(a, b, c):
    tile_a = cuda.shared.array((TILE, A_ROW), ml_dtypes.bfloat16)
    tile_b = cuda.shared.array((STEP, B_ROW), ml_dtypes.bfloat16)
    # Pairs of bfloat16 as one 32-bit word: half as many loads and stores.
    words_a, words_b = tile_a.view(np.uint32), tile_b.view(np.uint32)
    pairs_a, pairs_b = a.view(np.uint32), b.view(np.uint32)
    thread = cuda.threadIdx.x
    warp = thread // 32
    row0, column0 = cuda.blockIdx.y * TILE, cuda.blockIdx.x * TILE
    warp_row, warp_column = (warp // 4) * 64, (warp % 4) * 32
    fa = wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    acc00 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc01 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc10 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc11 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc20 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc21 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc30 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    acc31 = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    for acc in (acc00, acc01, acc10, acc11, acc20, acc21, acc30, acc31):
        wmma.fill_fragment(acc, 0)
    for k0 in range(0, a.shape[1], STEP):
        # 128 x 32 of a and 32 x 128 of b: 2048 words each, 8 per thread.
        for word in range(thread, TILE * STEP // 2, 256):
            r, w = word // (STEP // 2), word % (STEP // 2)
            words_a[r, w] = pairs_a[row0 + r, k0 // 2 + w]
            r, w = word // (TILE // 2), word % (TILE // 2)
            words_b[r, w] = pairs_b[k0 + r, column0 // 2 + w]
        cuda.syncthreads()
        for kk in range(0, STEP, 16):
            wmma.load_matrix_sync(fb, tile_b[kk:, warp_column:], B_ROW)
            for i, accs in ((0, (acc00, acc01)), (1, (acc10, acc11)), (2, (acc20, acc21)),
                            (3, (acc30, acc31))):
                wmma.load_matrix_sync(fa, tile_a[warp_row + 16 * i:, kk:], A_ROW)
                wmma.mma_sync(accs[0], fa, fb, accs[0])
            wmma.load_matrix_sync(fb, tile_b[kk:, warp_column + 16:], B_ROW)
            for i, accs in ((0, (acc00, acc01)), (1, (acc10, acc11)), (2, (acc20, acc21)),
                            (3, (acc30, acc31))):
                wmma.load_matrix_sync(fa, tile_a[warp_row + 16 * i:, kk:], A_ROW)
                wmma.mma_sync(accs[1], fa, fb, accs[1])
        cuda.syncthreads()
    row, column = row0 + warp_row, column0 + warp_column
    for i, accs in ((0, (acc00, acc01)), (1, (acc10, acc11)), (2, (acc20, acc21)),
                    (3, (acc30, acc31))):
        wmma.store_matrix_sync(c[row + 16 * i:, column:], accs[0], c.shape[1],
                               wmma.mem_row_major)
        wmma.store_matrix_sync(c[row + 16 * i:, column + 16:], accs[1], c.shape[1],
                               wmma.mem_row_major)


def main():
    on_gpu = kaji.is_available() and kaji.devices()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else (1024 if on_gpu else 256)
    if n % TILE:
        sys.exit(f"N must be a multiple of {TILE}, not {n}")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16)
    da, db = cuda.to_device(a), cuda.to_device(b)
    dc = cuda.device_array((n, n), np.float32)
    launch = gemm[(n // TILE, n // TILE), 256]
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
