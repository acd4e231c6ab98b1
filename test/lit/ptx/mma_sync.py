# cuda.wmma at mma.sync's shapes (m16n8k16, m16n8k8) through LLVM's NVPTX backend: each lane
# loads and stores its own elements where PTX places them, and the multiply is
# llvm.nvvm.mma's mma.sync, row-major A registers by column-major B registers whatever order
# the matrices have in memory; the fragments stay in registers. The nvrtc backend emits the same
# instruction in inline assembly. ptxas assembles both. A 16-bit A or B fragment loaded from
# shared memory goes a row of 8 elements at a time (ldmatrix: x4 for A, x2 for B, .trans for a B
# stored row major) where every row starts on a 16-byte boundary, element by element otherwise.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s --check-prefix=CUDA
# CHECK-LABEL: .entry bf16_tile
# CHECK-NOT: .local
# CHECK: ld.global.u16
# CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# CHECK: st.global.f32
# CHECK-LABEL: .entry tf32_tile
# CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# CHECK-LABEL: .entry from_shared
# CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
# CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}{{(\+[0-9]+)?}}];
# CHECK-DAG: ld.shared.b16
# CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# CUDA-LABEL: void bf16_tile(
# CUDA: kaji::fragment<bf16, 8>
# CUDA: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
# CUDA-LABEL: void tf32_tile(
# CUDA: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
import numpy as np
from kaji import cuda
from kaji.cuda import wmma


@cuda.jit("void(bfloat16[:, ::1], bfloat16[:, ::1], float32[:, ::1])")
def bf16_tile(a, b, c):
    fa = wmma.fragment(wmma.matrix_a, 16, 8, 16, np.bfloat16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 8, 16, np.bfloat16, wmma.col_major)
    fc = wmma.fragment(wmma.accumulator, 16, 8, 16, np.float32)
    wmma.load_matrix_sync(fa, a, 16)
    wmma.load_matrix_sync(fb, b, 16)
    wmma.fill_fragment(fc, 0)
    wmma.mma_sync(fc, fa, fb, fc)
    wmma.store_matrix_sync(c, fc, 8, wmma.mem_row_major)


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def tf32_tile(a, b, c):
    fa = wmma.fragment(wmma.matrix_a, 16, 8, 8, np.float32, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 8, 8, np.float32, wmma.row_major)
    fc = wmma.fragment(wmma.accumulator, 16, 8, 8, np.float32)
    wmma.load_matrix_sync(fa, a, 8)
    wmma.load_matrix_sync(fb, b, 8)
    wmma.load_matrix_sync(fc, c, 8, wmma.mem_row_major)
    wmma.mma_sync(fc, fa, fb, fc)
    wmma.store_matrix_sync(c, fc, 8, wmma.mem_row_major)


@cuda.jit("void(float16[:, ::1], float16[:, ::1], float32[:, ::1], int64)")
def from_shared(a, b, c, ldm):
    tiles = cuda.shared.array((2, 384), np.float16)
    for e in range(cuda.threadIdx.x, 256, 32):
        tiles[0, e // 16 * ldm + e % 16] = a[e // 16, e % 16]
        tiles[1, e // 8 * ldm + e % 8] = b[e // 8, e % 8]
    cuda.syncwarp()
    fa = wmma.fragment(wmma.matrix_a, 16, 8, 16, np.float16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 8, 16, np.float16, wmma.row_major)
    fc = wmma.fragment(wmma.accumulator, 16, 8, 16, np.float32)
    wmma.load_matrix_sync(fa, tiles[0], ldm)
    wmma.load_matrix_sync(fb, tiles[1], ldm)
    wmma.fill_fragment(fc, 0)
    wmma.mma_sync(fc, fa, fb, fc)
    wmma.store_matrix_sync(c, fc, 8, wmma.mem_row_major)
