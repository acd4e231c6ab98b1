# A signature as Numba prints a signature object (str(void(float32[:, ::1], int32))) compiles
# like the one it prints.
# RUN: %kaji-compile %s --kernel k --sig '(array(float32, 2d, C), int32) -> none' --emit ir | %FileCheck %s
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:, ::1], int32)' --emit ir | %FileCheck %s
import kaji


def k(a, n):
    a[0, 0] = n

# CHECK-LABEL: kernel @k(%a: array<f32, 2, C>, %n: i32)
