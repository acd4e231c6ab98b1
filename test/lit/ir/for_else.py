# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    for j in range(n):
        if a[j] < 0:
            break
    else:
        a[0] = 42

# CHECK: cmp lt
# CHECK: const 42 : i64
# CHECK: store
