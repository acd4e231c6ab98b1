# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    for j in range(n, 0, -2):
        a[j] = 1.0

# A constant negative step counts down with a single '>' test.
# CHECK: ^[[HEAD:bb[0-9]+]](%[[J:[0-9]+]]: i64):
# CHECK: cmp gt %[[J]], %{{[0-9]+}} : i64
# CHECK-NOT: select
# CHECK: add %[[J]], %{{[0-9]+}} : i64
