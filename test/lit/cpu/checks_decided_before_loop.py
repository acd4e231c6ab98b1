# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu | %FileCheck %s
# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu --no-boundscheck | %FileCheck %s --check-prefix=UNCHECKED
# RUN: %kaji-compile %s --target cpu -O0 | %FileCheck %s --check-prefix=WRAP
# RUN: %kaji-compile %s --target cpu -O0 | %FileCheck %s --check-prefix=SLOT
import numpy as np

import kaji


@kaji.jit("void(float32[:, ::1], float32[:, ::1])")
def stencil(out, u):
    j, i = kaji.grid(2)
    if 0 < i < u.shape[0] - 1 and 0 < j < u.shape[1] - 1:
        out[i, j] = np.float32(0.2) * (u[i, j] + u[i - 1, j] + u[i + 1, j] + u[i, j - 1] +
                                       u[i, j + 1])

# Every index is affine in the block's thread indices: before the loops over the block's
# threads the least and greatest index of each access are computed, and when all are in range
# the loops run without a check and vectorise as the unchecked kernel's do. The loops over
# threads run only over the threads inside the guard (ClampThreadLoops.h), so the columns at
# the array's edges do not fail these tests; a copy of the loops with every check runs for the
# first and last row of blocks (row - 1 and row + 1 leave the array for threads the guard
# skips).
# CHECK: define void @stencil.host_entry(
# CHECK: checks.hold
# CHECK: br i1 %checks.hold{{[0-9]*}}, label %tid.z.loop.preheader, label %{{.*}}.checked
# CHECK-DAG: .checked:
# CHECK-DAG: index_error
# CHECK-DAG: fadd <8 x float>
# UNCHECKED: define void @stencil.host_entry(
# UNCHECKED-NOT: checks.likely
# UNCHECKED: fadd <8 x float>

# The test of a negative index's wraparound runs only for negative indices, so it is not
# marked likely: IRCE would take it for a range check of every iteration, and `j - 1 + extent
# u< extent` holds for j < 1 alone, which left the main loop (the vectorised one) no iterations.
# WRAP: br i1 %index.wrapped_in_range{{[0-9]*}}, label %bounds.ok{{[0-9]*}}, label %bounds.fail{{[0-9]*}}, !prof ![[EVEN:[0-9]+]]
# WRAP: ![[EVEN]] = !{!"branch_weights", i32 1, i32 1}

# Every report of a function gives the raising thread's coordinates in one frame slot: a slot
# per report left a pair of lifetime markers per report in the thread loop, which stayed in its
# checked-free copy and kept the vectoriser from interleaving it.
# SLOT: %raising_thread = alloca { i64, [2 x i32], [2 x i32] }
# SLOT-NOT: %raising_thread{{[0-9]+}} = alloca
