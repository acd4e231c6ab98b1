# A vector's lanes come from numbers and vectors of its own lane type only, as in Numba.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


def k(a):
    v = cuda.float64x4(cuda.float32x2(a[0], a[1]), a[2], a[3])
    a[0] = v.x

# CHECK: {{.*}}vector_lane_type.py:7:9: error: float64x4() takes numbers and float64 vectors, not 'float32x2', in 'cuda.float64x4(cuda.float32x2(a[0], a[1]), a[2], a[3])'
