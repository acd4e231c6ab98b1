# RUN: %kaji-compile %s --kernel k --sig 'void(bool[:], int64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, y):
    out[0] = 1 < 2 < 3
    out[1] = 1 > 2 < 3
    out[2] = 5 < 3 < y[0]

# A comparison that is constantly false ends the chain: the rest is never evaluated (no load
# of y), as in Python.
# CHECK-LABEL: kernel @k
# CHECK-NOT: load %y
# CHECK-NOT: cond_br
# CHECK: ret
