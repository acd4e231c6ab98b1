# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji

SCALE = 3
OFFSET = -0.5


@kaji.jit
def k(a):
    a[0] = a[0] * SCALE + OFFSET

# Module-level literals are weak like literals in the kernel.
# CHECK-NOT: f64
# CHECK: const 3.0 : f32
# CHECK: const -0.5 : f32
