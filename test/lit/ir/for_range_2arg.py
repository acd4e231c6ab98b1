# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    for j in range(2, n):
        a[j] = 1.0

# CHECK: %[[START:[0-9]+]] = const 2 : i64
# CHECK: br ^[[HEAD:bb[0-9]+]](%[[START]] : i64)
# CHECK: ^[[HEAD]](%[[J:[0-9]+]]: i64):
# CHECK: cmp lt %[[J]], %n : i64
