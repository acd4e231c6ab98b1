# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, i):
    if i >= a.size:
        return
    a[i] = 1.0

# CHECK: cmp ge %i
# CHECK: cond_br
# CHECK: ret
# CHECK: store
# CHECK: ret
