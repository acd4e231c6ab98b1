# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu --kernel stencil | %FileCheck %s --check-prefix=STENCIL
# RUN: %kaji-compile %s --target cpu --kernel spelled_out | %FileCheck %s --check-prefix=SPELLED
# RUN: %kaji-compile %s --target cpu --kernel reads_thread | %FileCheck %s --check-prefix=OWN
# RUN: %kaji-compile %s --target cpu --kernel shares | %FileCheck %s --check-prefix=OWN
import numpy as np
from kaji import cuda


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def stencil(out, u):
    col, row = cuda.grid(2)
    if row > 0 and row < u.shape[0] - 1 and col > 0 and col < u.shape[1] - 1:
        out[row, col] = 0.25 * (u[row - 1, col] + u[row + 1, col] + u[row, col - 1] +
                                u[row, col + 1])

# The stencil reads its column as cuda.grid's x alone: the entry runs each row of threads of a
# run of blocks along x (up to the end of the grid's row) as one loop over the global index. Its
# guard's interval is that of the whole run, its checks are decided once for the run, and the
# loop vectorises without masks, without a division left in it, across the blocks.
# STENCIL-LABEL: define void @stencil.host_entry(
# STENCIL: %threads.pass = icmp {{[a-z]+}} i128
# STENCIL: vector.body:
# STENCIL-NOT: {{udiv|urem|masked}}
# STENCIL: load <8 x float>
# STENCIL-NOT: {{udiv|urem|masked}}
# STENCIL: store <8 x float>
# STENCIL-NOT: {{udiv|urem|masked}}
# STENCIL: middle.block:
# STENCIL: %run.blocks = {{.*}}call i64 @llvm.umin.i64(


@cuda.jit("void(float64[::1], float64[::1])")
def spelled_out(out, x):
    i = cuda.blockDim.x * cuda.blockIdx.x + cuda.threadIdx.x
    if i < x.size:
        out[i] = x[i] + 1.0

# Any order of the sum is the global index.
# SPELLED-LABEL: define void @spelled_out.host_entry(
# SPELLED: %run.blocks =


@cuda.jit("void(int64[:, ::1])")
def reads_thread(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = cuda.threadIdx.x


@cuda.jit("void(float64[::1], float64[::1])")
def shares(out, x):
    slot = cuda.shared.array(64, np.float64)
    i = cuda.grid(1)
    if i < x.size:
        slot[i % 64] = x[i]
        out[i] = slot[i % 64]

# A kernel that reads threadIdx.x or blockIdx.x on its own, or uses the block's shared memory,
# runs its blocks one by one.
# OWN-LABEL: define void @{{reads_thread|shares}}.host_entry(
# OWN-NOT: run.blocks
# OWN: ret void
