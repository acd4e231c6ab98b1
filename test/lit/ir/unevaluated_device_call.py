# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit(device=True)
def dead_and(v):
    return v * 2


@kaji.jit(device=True)
def dead_arm(v):
    return v + 1


@kaji.jit(device=True)
def live(v):
    return v - 1


@kaji.jit
def k(a):
    a[0] = False and dead_and(a[1])
    a[1] = live(a[2]) if True else dead_arm(a[3])

# A device function called only from an operand a constant condition leaves unevaluated is
# type-checked (its return type counts) but not emitted: no call, no definition.
# CHECK-LABEL: kernel @k
# CHECK-NOT: dead_
# CHECK: call @live__f32(
# CHECK-NOT: dead_
# CHECK: device @live__f32(
# CHECK-NOT: dead_
