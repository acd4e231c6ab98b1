# A loop of some thirty instructions whose trip count is known only at run time is unrolled
# by four on the GPU, as nvcc does (codegen/llvm/src/GPULoopUnrollPolicy.h), where LLVM's own
# NVPTX budget unrolls it by two: four bodies in the unrolled loop, one in the remainder.
# A loop with a barrier keeps one body per iteration, and no warning is printed for it. A
# grid-stride loop, whose trip count takes a division by gridsize (64-bit, or 32-bit where the
# operands fit), is unrolled by four too, as nvcc does, though LLVM would keep it whole; its
# first iteration is peeled off before the division, so that a thread whose loop runs once
# (a grid of a thread per element) divides nothing. That holds for a loop whose writes go
# where its loads cannot read (shared-memory counts from global data), but a grid-stride loop
# that stores into an array its loads may read stays whole, as nvcc keeps it: the copies'
# loads could not move above the stores, and would only cost registers.
# RUN: %kaji-compile %s --kernel forces --emit llvm | %FileCheck %s --check-prefix=FOUR
# RUN: %kaji-compile %s --kernel staged_sum --emit ptx 2>&1 | %FileCheck %s --check-prefix=BARRIER
# RUN: %kaji-compile %s --kernel grid_stride --emit ptx | %FileCheck %s --check-prefix=GRID
# RUN: %kaji-compile %s --kernel shared_counts --emit ptx | %FileCheck %s --check-prefix=SHARED
# RUN: %kaji-compile %s --kernel grid_stride_store --emit ptx | %FileCheck %s --check-prefix=STORE
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import math

import numpy as np
from kaji import cuda


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def forces(accel, pos):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        ax = np.float32(0)
        ay = np.float32(0)
        for j in range(pos.shape[0]):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            inverse = np.float32(1) / math.sqrt(dx * dx + dy * dy + np.float32(0.01))
            strength = pos[j, 2] * inverse * inverse * inverse
            ax += dx * strength
            ay += dy * strength
        accel[i, 0] = ax
        accel[i, 1] = ay

# FOUR-LABEL: define {{.*}}void @forces(
# FOUR-COUNT-5: call float @llvm.sqrt.f32
# FOUR-NOT: call float @llvm.sqrt.f32
# FOUR: }


@cuda.jit("void(float32[::1], float32[::1])")
def staged_sum(out, x):
    stage = cuda.shared.array(32, np.float32)
    tid = cuda.threadIdx.x
    total = np.float32(0)
    for start in range(0, x.size, 32):
        if start + tid < x.size:
            stage[tid] = math.sqrt(x[start + tid]) * np.float32(3) + np.float32(1)
        cuda.syncthreads()
        near = stage[(tid + 1) % 32] * stage[(tid + 7) % 32] + stage[31 - tid]
        total += near * stage[(tid + 3) % 32] - stage[(tid + 5) % 32] / near
        cuda.syncthreads()
    out[tid] = total

# BARRIER-NOT: warning
# BARRIER-LABEL: .entry staged_sum(
# BARRIER-COUNT-1: sqrt.rn.f32
# BARRIER-NOT: sqrt.rn.f32
# BARRIER-NOT: warning


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def grid_stride(out, x, y):
    total = np.float32(0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        dx = x[i] - y[i]
        dy = x[i] * y[i] + np.float32(1)
        r = math.sqrt(dx * dx + dy * dy + np.float32(0.5))
        total += dx / r + dy / (r * r) + math.sqrt(r) * dx * dy
    cuda.atomic.add(out, 0, total)

# GRID-LABEL: .entry grid_stride(
# GRID-NOT: div.u
# GRID-COUNT-2: sqrt.rn.f32
# GRID-NOT: sqrt.rn.f32
# GRID: div.u64
# GRID: div.u32
# GRID-COUNT-10: sqrt.rn.f32
# GRID-NOT: sqrt.rn.f32
# GRID: }


@cuda.jit("void(int32[::1], uint8[::1])")
def shared_counts(counts, data):
    block_counts = cuda.shared.array(256, np.int32)
    block_counts[cuda.threadIdx.x] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), data.size, cuda.gridsize(1)):
        cuda.atomic.add(block_counts, data[i], 1)
    cuda.syncthreads()
    cuda.atomic.add(counts, cuda.threadIdx.x, block_counts[cuda.threadIdx.x])

# SHARED-LABEL: .entry shared_counts(
# SHARED-NOT: div.u
# SHARED-COUNT-1: atom.shared.add.u32
# SHARED-NOT: atom.shared.add.u32
# SHARED: div.u64
# SHARED-COUNT-5: atom.shared.add.u32
# SHARED-NOT: atom.shared.add.u32
# SHARED: }


@cuda.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def grid_stride_store(out, a, x, y):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]

# STORE-LABEL: .entry grid_stride_store(
# STORE-NOT: div.u
# STORE-COUNT-1: fma.rn.f32
# STORE-NOT: fma.rn.f32
# STORE-NOT: div.u
# STORE: }
