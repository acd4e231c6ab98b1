# cuda.pipeline through LLVM's NVPTX backend: a copy of 16 bytes is cp.async.cg (L1 bypassed),
# of 4 and 8 bytes cp.async.ca, from a global to a shared address; commit and wait_prior are
# cp.async's group instructions. For sm_75, which has no cp.async, the copy is loads and
# stores made at once and commit and wait are nothing, as CUDA's pipeline primitives do there.
# Bounds-checked, both ends of each span are checked before the copy, and both addresses'
# alignment to its size (a ValueError where cp.async would fault). Shared arrays start on
# 16-byte boundaries, whatever their element (int16 here), so 16-byte copies into them can be.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --arch sm_75 --kernel tiles --emit ptx | %FileCheck %s --check-prefix=SM75
# RUN: %kaji-compile %s --boundscheck --kernel tiles --emit llvm | %FileCheck %s --check-prefix=CHECKED
# CHECK-LABEL: .entry tiles
# CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
# CHECK: cp.async.commit_group;
# CHECK: cp.async.wait_group 1;
# CHECK: bar.sync 0;
# CHECK: cp.async.wait_group 0;
# CHECK-LABEL: .entry small
# CHECK: .shared .align 16 .b8 {{.*}}small{{.*}}[128];
# CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 8;
# CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
# SM75-LABEL: .entry tiles
# SM75-NOT: cp.async
# SM75: ld.global.f32
# SM75: st.shared.v4.f32
# SM75-NOT: cp.async
# CHECKED-LABEL: define {{.*}}@tiles
# CHECKED: icmp sgt i64 %{{[0-9]+}}, 3
# CHECKED: and i64 %{{[0-9]+}}, 15
# CHECKED: br i1 %{{.*}}, label %copy.aligned, label %copy.misaligned
# CHECKED: call void @llvm.nvvm.cp.async.cg.shared.global.16
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[::1], float32[::1])")
def tiles(x, out):
    tile = cuda.shared.array((2, 128), np.float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * 256
    cuda.pipeline.memcpy_async(tile[0, 4 * t:], x[base + 4 * t:], 16)
    cuda.pipeline.commit()
    cuda.pipeline.memcpy_async(tile[1, 4 * t:], x[base + 128 + 4 * t:], 16)
    cuda.pipeline.commit()
    cuda.pipeline.wait_prior(1)
    cuda.syncthreads()
    s = tile[0, 4 * t] + tile[0, 4 * t + 3]
    cuda.pipeline.wait_prior(0)
    cuda.syncthreads()
    out[cuda.grid(1)] = s + tile[1, 4 * t]


@cuda.jit("void(int16[::1], int16[::1])")
def small(x, out):
    tile = cuda.shared.array(64, np.int16)
    t = cuda.threadIdx.x
    cuda.pipeline.memcpy_async(tile[4 * t:], x[4 * t:], 8)
    cuda.pipeline.memcpy_async(tile[32 + 2 * t:], x[32 + 2 * t:], 4)
    cuda.pipeline.commit()
    cuda.pipeline.wait_prior(0)
    cuda.syncthreads()
    out[t] = tile[t]
