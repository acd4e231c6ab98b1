# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    for j in range(n):
        if j == 3:
            continue
        if j == 5:
            break
        a[j] = j

# CHECK: ^[[HEAD:bb[0-9]+]](%[[J:[0-9]+]]: i64):
# CHECK: cmp eq %[[J]], %{{[0-9]+}} : i64
# CHECK: cmp eq %[[J]], %{{[0-9]+}} : i64
# CHECK: store %[[J]], %a
