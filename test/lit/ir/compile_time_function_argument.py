# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir | %FileCheck %s
import math

import kaji


@kaji.jit(device=True)
def square(v):
    return v * v


@kaji.jit(device=True)
def apply(f, v):
    return f(v)


def k(a):
    a[0] = apply(square, a[0])
    a[1] = apply(math.sin, a[1])

# A function argument has no IR parameter: `apply` is specialised on it (K, then F for a
# kaji function or B for a builtin) and calls it directly.
# CHECK: call @apply__KFsquare_f64(%{{[0-9]+}}) : f64
# CHECK: call @apply__KBmath.sin_f64(%{{[0-9]+}}) : f64
# CHECK-DAG: device @apply__KFsquare_f64(%v: f64) -> f64
# CHECK-DAG: device @apply__KBmath.sin_f64(%v: f64) -> f64
# CHECK-DAG: call @square__f64(%v) : f64
# CHECK-DAG: math sin(%v)
