# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], uint32, uint64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, i, j):
    a[j] = a[i]

# An unsigned index is never negative: it becomes u64 and is not wrapped around the extent.
# CHECK: %[[I:[0-9]+]] = cast %i : u32 to u64
# CHECK-NEXT: load %a[%[[I]]] : f32
# CHECK-NOT: array_dim
# CHECK: store %{{[0-9]+}}, %a[%j]
