# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, n):
    a[0] = a[1] if n > 0 else 0

# The weak 0 adopts float32 from the other branch.
# CHECK: cmp gt %n
# CHECK: load %a
# CHECK-NEXT: br ^[[MERGE:bb[0-9]+]](%{{[0-9]+}} : f32)
# CHECK: const 0.0 : f32
# CHECK: ^[[MERGE]](%{{[0-9]+}}: f32):
