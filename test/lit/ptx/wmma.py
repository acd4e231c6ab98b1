# cuda.wmma through LLVM's NVPTX backend: the llvm.nvvm.wmma intrinsics become PTX's wmma
# instructions, the fragments registers (no local memory), and ptxas assembles them.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# CHECK-LABEL: .entry bf16_tile
# CHECK-NOT: .local
# CHECK: wmma.load.c.sync.aligned.col.m16n16k16.global.f32
# CHECK: wmma.load.a.sync.aligned.row.m16n16k16.global.bf16
# CHECK: wmma.load.b.sync.aligned.col.m16n16k16.global.bf16
# CHECK: wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32
# CHECK: wmma.store.d.sync.aligned.col.m16n16k16.global.f32
# CHECK-LABEL: .entry int8_tile
# CHECK: wmma.load.a.sync.aligned.row.m16n16k16.shared.s8
# CHECK: wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32
# CHECK: wmma.store.d.sync.aligned.row.m16n16k16.global.s32
# CHECK-LABEL: .entry half_tile
# CHECK: wmma.load.a.sync.aligned.row.m32n8k16.global.f16
# CHECK: wmma.mma.sync.aligned.row.row.m32n8k16.f16.f16
import numpy as np
from kaji import cuda
from kaji.cuda import wmma


@cuda.jit("void(bfloat16[:, ::1], bfloat16[:, ::1], float32[:, ::1])")
def bf16_tile(a, b, c):
    fa = wmma.fragment(wmma.matrix_a, 16, 16, 16, np.bfloat16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 16, 16, np.bfloat16, wmma.col_major)
    fc = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.load_matrix_sync(fc, c, 16, wmma.mem_col_major)
    wmma.load_matrix_sync(fa, a, 16)
    wmma.load_matrix_sync(fb, b, 16)
    wmma.mma_sync(fc, fa, fb, fc)
    wmma.store_matrix_sync(c, fc, 16, wmma.mem_col_major)


@cuda.jit("void(int8[:, ::1], int8[:, ::1], int32[:, ::1])")
def int8_tile(a, b, c):
    tile = cuda.shared.array((16, 16), np.int8)
    for i in range(cuda.threadIdx.x, 256, 32):
        tile[i // 16, i % 16] = a[i // 16, i % 16]
    cuda.syncwarp()
    fa = wmma.fragment(wmma.matrix_a, 16, 16, 16, np.int8, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 16, 16, np.int8, wmma.row_major)
    fc = wmma.fragment(wmma.accumulator, 16, 16, 16, np.int32)
    wmma.fill_fragment(fc, 0)
    wmma.load_matrix_sync(fa, tile, 16)
    wmma.load_matrix_sync(fb, b, 16)
    wmma.mma_sync(fc, fa, fb, fc)
    for i in range(fc.num_elements):
        fc.x[i] += 1
    wmma.store_matrix_sync(c, fc, 16, wmma.mem_row_major)


@cuda.jit("void(float16[:, ::1], float16[:, ::1], float16[:, ::1])")
def half_tile(a, b, c):
    fa = wmma.fragment(wmma.matrix_a, 32, 8, 16, np.float16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 32, 8, 16, np.float16, wmma.row_major)
    fc = wmma.fragment(wmma.accumulator, 32, 8, 16, np.float16)
    wmma.load_matrix_sync(fa, a, 16)
    wmma.load_matrix_sync(fb, b, 8)
    wmma.load_matrix_sync(fc, c, 8, wmma.mem_row_major)
    wmma.mma_sync(fc, fa, fb, fc)
    wmma.store_matrix_sync(c, fc, 8, wmma.mem_row_major)
