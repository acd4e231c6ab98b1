# RUN: %kaji-compile %s --kernel k --sig 'void(int32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    a[0] = kaji.threadIdx.x + kaji.blockIdx.y * kaji.blockDim.z + kaji.gridDim.x

# The special registers are int32, like Numba's.
# CHECK-DAG: sreg tid.x : i32
# CHECK-DAG: sreg ctaid.y : i32
# CHECK-DAG: sreg ntid.z : i32
# CHECK-DAG: sreg nctaid.x : i32
# CHECK: store
