# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float32[:, :, :])")
def fill(a):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        a[i, j, k] = cuda.threadIdx.z + cuda.blockIdx.z * 0.5

# CHECK: .visible .entry fill(
# CHECK-DAG: %tid.z
# CHECK-DAG: %ctaid.z
# CHECK-DAG: %ntid.z
# CHECK: st.global.f32
