# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float32[:, :], float32[:, :], float32[:, :])")
def matrix_add(c, a, b):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        c[i, j] = a[i, j] + b[i, j]

# CHECK: .visible .entry matrix_add(
# CHECK-DAG: %tid.x
# CHECK-DAG: %tid.y
# CHECK-DAG: %ctaid.y
# CHECK: add.rn.f32
# CHECK: st.global.f32
