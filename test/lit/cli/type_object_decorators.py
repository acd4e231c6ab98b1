# Decorators with Numba's type objects, not strings, give the CLI its signatures too.
# RUN: %kaji-compile %s --emit ir | %FileCheck %s
from kaji import cuda, float32, int32, void


@cuda.jit(float32(float32, float32), device=True)
def half_sum(a, b):
    return (a + b) / 2


@cuda.jit(void(float32[:, ::1], int32))
def k(a, n):
    a[0, 0] = half_sum(n, 1)


@cuda.jit((int32[:],))
def arguments_only(a):
    a[0] = 1

# CHECK-LABEL: kernel @k(%a: array<f32, 2, C>, %n: i32)
# CHECK: cast %n : i32 to f32
# CHECK: call @half_sum__f32_f32
# CHECK-LABEL: kernel @arguments_only(%a: array<i32, 1, any>)
