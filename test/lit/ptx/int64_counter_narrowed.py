# A loop counting to an int64 limit (a Python int, as Numba types it) runs with a 32-bit
# counter when the limit and the trip count fit in 31 bits, which one check before the loop
# decides; otherwise a copy of the loop counts in 64 bits (codegen/llvm/src/NarrowLoopCounters.h).
# The count it leaves with, stored as an int32, comes out of the 32-bit loop as 32 bits.
# A counter that starts at a run-time value (a triangular loop, range(i + 1, n)) is narrowed
# when that start plus the trip count fits too.
# RUN: %kaji-compile %s --kernel escape_count --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %kaji-compile %s --kernel pairs --emit ptx | %FileCheck %s --check-prefix=PAIRS
# RUN: %ptxas %t.ptx
import numpy as np
from kaji import cuda


@cuda.jit("void(int32[::1], float32[::1], int64)")
def escape_count(counts, c, limit):
    i = cuda.grid(1)
    if i < c.size:
        z = np.float32(0)
        n = 0
        while n < limit and z * z <= np.float32(4):
            z = z * z + c[i]
            n += 1
        counts[i] = n

# CHECK-LABEL: .entry escape_count(
# CHECK: setp.lt.u64 {{.*}}, 2147483648;
# CHECK-NOT: .s64
# CHECK: add.s32 [[COUNTER:%r[0-9]+]], [[COUNTER]], 1;
# CHECK-NEXT: setp.{{eq|ne}}.s32 {{.*}}[[COUNTER]]
# CHECK: add.s64 [[WIDE:%rd[0-9]+]], [[WIDE]], 1;
# CHECK-NEXT: setp.{{eq|ne}}.s64


@cuda.jit("void(float32[::1], float32[::1])")
def pairs(out, x):
    i = cuda.grid(1)
    if i < x.size:
        acc = np.float32(0)
        for j in range(i + 1, x.size):
            acc += x[i] * x[j]
        out[i] = acc

# PAIRS-LABEL: .entry pairs(
# PAIRS: setp.lt.u64 {{.*}}, 2147483646;
# PAIRS: add.s32 [[J:%r[0-9]+]], [[J]], 1;
# PAIRS: add.s64 [[WIDE:%rd[0-9]+]], [[WIDE]], 1;
