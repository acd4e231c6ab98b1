# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    while n > 0:
        if a[n] == 0:
            break
        n -= 1
    else:
        a[0] = 7

# The else block runs only when the condition fails, not after break.
# CHECK: cmp gt
# CHECK: cmp eq
# CHECK: const 7 : i64
# CHECK: store
