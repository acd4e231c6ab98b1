# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir | %FileCheck %s
import kaji

SCALES = (2.0, (3, 4))


@kaji.jit
def k(a):
    a[0] = SCALES[0] * SCALES[1][1]

# A module-level tuple of literals is a constant; its elements fold.
# CHECK-LABEL: kernel @k
# CHECK: const 8.0 : f64
