# RUN: %kaji-compile %s --target cpu | %FileCheck %s
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def laplace(out, u):
    col, row = cuda.grid(2)
    if 0 < row < u.shape[0] - 1 and 0 < col < u.shape[1] - 1:
        out[row, col] = np.float32(0.25) * (u[row - 1, col] + u[row + 1, col] + u[row, col - 1] +
                                            u[row, col + 1])

# `out` may be `u` or overlap it, but two threads of a block that touch one location without an
# atomic race: the loop over the block's threads says that its iterations do not depend on each
# other through memory, and the vectoriser widens it with no run-time test of the arrays'
# overlap for each row of threads.
# CHECK-LABEL: define void @laplace.host_entry(
# CHECK-NOT: found.conflict
# CHECK: load <{{[0-9]+}} x float>
# CHECK-NOT: found.conflict
# CHECK-LABEL: {{^}}}
# CHECK-DAG: !{!"llvm.loop.parallel_accesses", ![[GROUP:[0-9]+]]}
# CHECK-DAG: ![[GROUP]] = distinct !{}


@cuda.jit("void(int64[::1], int64[::1])")
def histogram(counts, values):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.add(counts, values[i], 1)

# Threads that count through an atomic do depend on each other: that loop makes no such claim.
# CHECK-LABEL: define void @histogram.host_entry(
# CHECK-NOT: !llvm.access.group
# CHECK-LABEL: {{^}}}
