# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    s = 0
    for j in range(n):
        s += a[j]
    a[0] = s

# s starts as a weak 0 and takes float32 from the loop body.
# CHECK: ^[[HEAD:bb[0-9]+]](%{{[0-9]+}}: i32, %[[S:[0-9]+]]: f32):
# CHECK: add %[[S]], %{{[0-9]+}} : f32
