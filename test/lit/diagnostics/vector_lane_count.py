# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    xy = cuda.float32x2(a[0], a[1])
    v = cuda.float32x4(xy, a[2])
    a[0] = v.x

# CHECK: {{.*}}vector_lane_count.py:7:9: error: float32x4() needs 4 lanes in all, got 3 in 'cuda.float32x4(xy, a[2])'
# CHECK-NEXT: {{^}}    v = cuda.float32x4(xy, a[2]){{$}}
