# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:, :])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    i, j = kaji.grid(2)
    a[i, j] = 1.0

# CHECK-DAG: sreg tid.x
# CHECK-DAG: sreg tid.y
# CHECK-DAG: sreg ctaid.y
# CHECK-DAG: sreg ntid.y
# CHECK: store {{.*}}, %a[%{{[0-9]+}}, %{{[0-9]+}}]
