# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    i = kaji.grid(1)
    a[i] = 1.0

# threadIdx.x + blockIdx.x * blockDim.x, computed in int64.
# CHECK-DAG: %[[NTID:[0-9]+]] = sreg ntid.x : i32
# CHECK-DAG: %[[CTAID:[0-9]+]] = sreg ctaid.x : i32
# CHECK-DAG: %[[TID:[0-9]+]] = sreg tid.x : i32
# CHECK-DAG: cast %[[NTID]] : i32 to i64
# CHECK-DAG: cast %[[CTAID]] : i32 to i64
# CHECK-DAG: cast %[[TID]] : i32 to i64
# CHECK-DAG: mul {{.*}} : i64
# CHECK-DAG: add {{.*}} : i64
