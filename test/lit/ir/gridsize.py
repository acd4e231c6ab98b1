# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    a[0] = kaji.gridsize(1)

# blockDim.x * gridDim.x in int64.
# CHECK-DAG: sreg ntid.x
# CHECK-DAG: sreg nctaid.x
# CHECK: mul {{.*}} : i64
# CHECK: store
