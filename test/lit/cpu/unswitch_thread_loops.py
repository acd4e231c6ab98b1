# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu | %FileCheck %s
from kaji import cuda


@cuda.jit("void(float64[:, ::1], float64[:, ::1])")
def column_moments(out, p):
    i = cuda.grid(1)
    if i < out.shape[0]:
        a = 0.0
        b = 0.0
        for j in range(p.shape[0]):
            w = p[j, 3] / (1.0 + abs(p[j, 0] - p[i, 0]))
            a += w * p[j, 1]
            b += w * p[j, 2]
        out[i, 0] = a
        out[i, 1] = b

# Checked, the loop reads four constant columns of p: LLVM tests `3 < p.shape[1]` and the others
# outside the loop over j and keeps a copy of that loop for each way they go, so the thread's
# body holds two loops. The loop over threads is versioned on those tests, a copy for each way
# (`.unswitched`); in the copy where every column is in range the loop over j runs around the
# loop over threads (InterchangeThreadLoops.h), whose iterations vectorise.
# CHECK-LABEL: define void @column_moments.host_entry(
# CHECK: unswitched
# CHECK: before.thread
# CHECK: fdiv <4 x double>
