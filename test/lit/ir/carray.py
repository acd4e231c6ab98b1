# RUN: %kaji-compile %s --kernel grid --sig 'void(float32*, int64)' --emit ir | %FileCheck %s
# RUN: %not %kaji-compile %s --kernel mismatched --sig 'void(float32*)' --emit ir 2>&1 | %FileCheck %s --check-prefix=DTYPE
import numpy as np

import kaji


# carray/farray (Numba's numpy_support functions, kaji.carray): a view of the pointer's memory
# from its start, with the shape's extents and C- (Fortran-) ordered byte strides.
# CHECK-LABEL: kernel @grid(%p: u64, %n: i64)
# CHECK: %[[ROWS:[0-9a-z_.]+]] = array_at {{.*}} : array<f32, 1, C>
# CHECK: array_view %[[ROWS]], %{{[0-9]+}}, [%n, %{{[0-9]+}}], [%{{[0-9]+}}, %{{[0-9]+}}] : array<f32, 2, C>
# CHECK: array_view %[[ROWS]], %{{[0-9]+}}, [%n, %{{[0-9]+}}], [%{{[0-9]+}}, %{{[0-9]+}}] : array<f32, 2, F>
def grid(p, n):
    c = kaji.carray(p, (n, 3))
    f = kaji.farray(p, (n, 3), dtype=np.float32)
    c[0, 1] = f[1, 0]


# DTYPE: carray.py:[[@LINE+2]]:33: error: mismatching dtype 'int32' for a pointer to float32
def mismatched(p):
    a = kaji.carray(p, 4, dtype=np.int32)
