# A local or shared array's dtype is a numpy scalar type or one of the vector types.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    points = cuda.local.array(4, dtype=cuda.grid)
    a[0] = points[0]

# CHECK: {{.*}}vector_array_dtype.py:7:40: error: the dtype of a local array must be a numpy scalar type such as float32 (or its name), a structured (record) dtype or a vector type such as cuda.float32x4, not 'cuda.grid'
