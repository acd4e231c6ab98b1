# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:, :, :])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    i, j, l = kaji.grid(3)
    a[i, j, l] = 1.0

# CHECK-DAG: sreg tid.z
# CHECK-DAG: sreg ctaid.z
# CHECK-DAG: sreg ntid.z
# CHECK: store {{.*}}, %a[%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
