# cuda.wgmma through LLVM's NVPTX backend: a module with warpgroup multiply-accumulates is
# compiled for sm_90a (PTX 8.0), its shared arrays start on 1024-byte boundaries, each barrier
# is preceded by the proxy fence that shows shared writes to the tensor cores, and the four
# multiplies of an unrolled step share one wgmma.fence. The accumulator stays in registers, and
# ptxas (for sm_90a) keeps the multiplies in flight together: it warns when it serializes them.
# Bounds-checked, each matrix's extents and layout are checked before the multiply where they
# are not known when compiling (rows_from's view starts at a run-time row).
# RUN: %kaji-compile %s --kernel product --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas-for --gpu-name sm_90a --verbose %t.ptx 2>&1 | %FileCheck %s --check-prefix=PTXAS
# RUN: %kaji-compile %s --boundscheck --kernel rows_from --emit llvm | %FileCheck %s --check-prefix=CHECKED
# RUN: %not %kaji-compile %s --arch sm_80 --emit ptx 2>&1 | %FileCheck %s --check-prefix=SM80
# CHECK: .version 8.0
# CHECK: .target sm_90a
# CHECK-LABEL: .entry product
# CHECK-NOT: .local
# CHECK: .shared .align 1024 .b8 {{.*}}[16384];
# CHECK: fence.proxy.async.shared::cta;
# CHECK-NEXT: // end inline asm
# CHECK-NEXT: bar.sync 0;
# CHECK: wgmma.fence.sync.aligned;
# CHECK-NOT: wgmma.fence
# CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%f{{[0-9]+}}, %f{{[0-9]+}},
# CHECK-NOT: wgmma.fence
# CHECK: wgmma.commit_group.sync.aligned;
# CHECK: wgmma.wait_group.sync.aligned 0;
# CHECK: st.global.f32
# PTXAS-NOT: C7515
# PTXAS: 0 bytes spill stores, 0 bytes spill loads
# PTXAS-NOT: C7515
# CHECKED-LABEL: define {{.*}}@rows_from
# CHECKED: and i64 %{{[0-9]+}}, {{911|896}}
# CHECKED: br i1 %{{.*}}, label %copy.aligned{{[0-9]*}}, label %copy.misaligned
# SM80: error: a fragment<acc, m64n128k16, f32> needs sm_90 or newer (compiling for sm_80)
import numpy as np

from kaji import cuda
from kaji.cuda import wgmma, wmma


@cuda.jit("void(bfloat16[:, ::1], bfloat16[:, ::1], float32[:, ::1])")
def product(a, bt, c):
    tiles = cuda.shared.array((128, 64), np.bfloat16)
    t = cuda.threadIdx.x
    for e in range(t, 128 * 64, 128):
        r, col = e // 64, e % 64
        value = a[r, col] if r < 64 else bt[r - 64, col]
        tiles[r, ((col // 8) ^ (r % 8)) * 8 + col % 8] = value
    cuda.syncthreads()
    acc = wmma.fragment(wmma.accumulator, 64, 128, 16, np.float32)
    wmma.fill_fragment(acc, 0)
    for k in range(0, 64, 16):
        wgmma.mma_async(acc, tiles[0:64, k:k + 16], tiles[0:128, k:k + 16])
    wgmma.commit_group()
    wgmma.wait_group(0)
    wmma.store_matrix_sync(c, acc, 128, wmma.mem_row_major)


@cuda.jit("void(int64, float32[:, ::1])")
def rows_from(start, c):
    tiles = cuda.shared.array((128, 64), np.float16)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wmma.fill_fragment(acc, 0)
    wgmma.mma_async(acc, tiles[start:start + 64, 0:16], tiles[96:128, 0:16])
    wgmma.commit_group()
    wgmma.wait_group(0)
    wmma.store_matrix_sync(c, acc, 32, wmma.mem_row_major)
