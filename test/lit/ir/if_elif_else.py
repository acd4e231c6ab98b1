# RUN: %kaji-compile %s --kernel k --sig 'void(int32[:], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    if n < 0:
        r = -1
    elif n == 0:
        r = 0
    else:
        r = 1
    a[0] = r

# CHECK-DAG: cmp lt %n
# CHECK-DAG: cmp eq %n
# CHECK-DAG: const -1 : i64
# CHECK-DAG: cast %{{[0-9]+}} : i64 to i32
# CHECK-DAG: store
