# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    a[0] = kaji.threadIdx.x + kaji.blockIdx.y * kaji.blockDim.z + kaji.gridDim.x

# The special registers are read as int32 and are int64 in kernels, so that arithmetic on
# them is 64-bit, as Numba's (which widens int32 arithmetic to int64) is.
# CHECK-DAG: %[[TID:[0-9]+]] = sreg tid.x : i32
# CHECK-DAG: %[[CTAID:[0-9]+]] = sreg ctaid.y : i32
# CHECK-DAG: %[[NTID:[0-9]+]] = sreg ntid.z : i32
# CHECK-DAG: %[[NCTAID:[0-9]+]] = sreg nctaid.x : i32
# CHECK-DAG: cast %[[TID]] : i32 to i64
# CHECK-DAG: cast %[[CTAID]] : i32 to i64
# CHECK-DAG: cast %[[NTID]] : i32 to i64
# CHECK-DAG: cast %[[NCTAID]] : i32 to i64
# CHECK: store
