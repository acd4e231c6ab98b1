# RUN: %kaji-compile %s --kernel k --sig 'void(int8[:, :, :], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    a[0, 1, 2] = n

# The value is converted to the element type before the store.
# CHECK: %[[V:[0-9]+]] = cast %n : i32 to i8
# CHECK: store %[[V]], %a[%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
