# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit(device=True)
def pick(flag, a, b):
    if flag:
        return a
    return b * 2.0


def k(x):
    x[0] = pick(True, x[0], x[1])

# The literal True is the callee's constant: the `if` folds and `b * 2.0` is never lowered.
# CHECK-LABEL: device @pick__KLbool_1_f64_f64(%a: f64, %b: f64) -> f64
# CHECK-NOT: cond_br
# CHECK-NOT: mul
# CHECK: ret %a
