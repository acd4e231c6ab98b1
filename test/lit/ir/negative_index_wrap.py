# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, i):
    a[-1] = a[i]

# A signed index below zero counts from the end.
# CHECK: %[[I:[0-9]+]] = cast %i : i32 to i64
# CHECK: %[[N:[0-9]+]] = array_dim %a, 0 : i64
# CHECK: %[[W:[0-9]+]] = add %[[I]], %[[N]] : i64
# CHECK: %[[NEG:[0-9]+]] = cmp lt %[[I]], %{{[0-9]+}} : i64
# CHECK: select %[[NEG]], %[[W]], %[[I]] : i64
# A constant -1 is wrapped without a test.
# CHECK: add %{{[0-9]+}}, %[[N]] : i64
# CHECK-NEXT: store
