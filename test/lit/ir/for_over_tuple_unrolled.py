# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, n):
    total = 0.0
    for v in (n, 2.5):
        total += v
    out[0] = total

# One copy of the body per element, each in the element's own type: no loop, no counter.
# CHECK-LABEL: kernel @k
# CHECK: const 2.5 : f64
# CHECK: cast %n : i32 to f64
# CHECK: add
# CHECK: add
# CHECK-NOT: cmp
