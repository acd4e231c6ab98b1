# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, y):
    v = y[0]
    out[0] = 1 if 1 else 2
    out[1] = 3 + (7 if True else v)
    out[2] = 1 if (v and 0) else 2

# A constant condition leaves the other branch unevaluated, as in Python: no code for it,
# and no read of `v` in the dead branch.
# CHECK-LABEL: kernel @k
# CHECK-NOT: const 2 : i64
# CHECK: store %{{[0-9]+}}, %out[
# CHECK: const 10 : i64
# CHECK: store %{{[0-9]+}}, %out[
# CHECK: const 2 : i64
# CHECK: store %{{[0-9]+}}, %out[
