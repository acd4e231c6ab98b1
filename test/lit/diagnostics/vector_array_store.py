# An element of an array of vectors is a vector of exactly its type: a number, or another
# vector type, is not converted into one.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    points = cuda.local.array(4, dtype=cuda.float32x2)
    points[0] = a[0]
    a[0] = points[0].x

# CHECK: {{.*}}vector_array_store.py:9:5: error: cannot store 'float32' into 'points[0]', an element of 'float32x2[::1]'
# CHECK-NEXT: {{^}}    points[0] = a[0]{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
