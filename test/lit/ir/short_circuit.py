# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    if n < a.size and a[n] > 0.0:
        a[n] = 0.0

# The load of a[n] is only reached when n < a.size holds.
# CHECK: cmp lt %n
# CHECK-NEXT: cond_br
# CHECK: load %a
