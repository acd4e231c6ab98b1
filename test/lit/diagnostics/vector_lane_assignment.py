# A vector's lanes are read-only, as in Numba: build a new vector instead.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


def k(a):
    v = cuda.float32x2(a[0], a[1])
    v.x = a[2]
    a[0] = v.x

# CHECK: {{.*}}vector_lane_assignment.py:8:5: error: cannot assign to 'v.x'
