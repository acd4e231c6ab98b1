# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    i = 0
    while i < n:
        a[i] = i
        i += 1

# CHECK: br ^[[HEAD:bb[0-9]+]](%{{[0-9]+}} : i64)
# CHECK: ^[[HEAD]](%[[I:[0-9]+]]: i64):
# CHECK: cmp lt %[[I]], %n : i64
# CHECK: add %[[I]], %{{[0-9]+}} : i64
# CHECK: br ^[[HEAD]]
