# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:, ::1], int64, int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, i, j):
    a[i, j] = a[j, i]

# CHECK-LABEL: kernel @k(%a: array<f64, 2, C>
# CHECK: load %a[%{{[0-9]+}}, %{{[0-9]+}}] : f64
# CHECK: store %{{[0-9]+}}, %a[%{{[0-9]+}}, %{{[0-9]+}}]
