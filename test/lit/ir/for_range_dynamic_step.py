# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64, int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n, s):
    for j in range(0, n, s):
        a[j] = 1.0

# The step's sign decides between the two loop conditions at run time.
# CHECK: ^[[HEAD:bb[0-9]+]](%[[J:[0-9]+]]: i64):
# CHECK-DAG: %[[UP:[0-9]+]] = cmp lt %[[J]], %n : i64
# CHECK-DAG: %[[DOWN:[0-9]+]] = cmp gt %[[J]], %n : i64
# CHECK-DAG: %[[POSITIVE:[0-9]+]] = cmp gt %s, %{{[0-9]+}} : i64
# CHECK: select %[[POSITIVE]], %[[UP]], %[[DOWN]] : bool
# A zero step at run time runs no iterations instead of spinning forever.
# CHECK: %[[NONZERO:[0-9]+]] = cmp ne %s, %{{[0-9]+}} : i64
# CHECK: and %{{[0-9]+}}, %[[NONZERO]] : bool
