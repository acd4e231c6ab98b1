# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    for j in range(n):
        a[j] = j

# The loop variable takes the range argument's type, int32.
# CHECK: ^[[HEAD:bb[0-9]+]](%[[J:[0-9]+]]: i32):
# CHECK: cmp lt %[[J]], %n : i32
# CHECK: cast %[[J]] : i32 to f32
# CHECK: add %[[J]], %{{[0-9]+}} : i32
