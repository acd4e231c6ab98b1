# RUN: %not %kaji-compile %s --kernel k --sig 'void(int32[:])' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


def k(a):
    v = cuda.int32x3(a[0], a[1], a[2])
    a[0] = v.w

# CHECK: {{.*}}vector_missing_lane.py:7:12: error: 'int32x3' has no attribute 'w'; its lanes are .x, .y, .z
