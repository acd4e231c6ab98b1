# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(x):
    i = kaji.grid(1)
    x[i] = x[i] * 2.0 + 1

# A Python literal adopts the array's float32: no float64 appears.
# CHECK-LABEL: kernel @k(
# CHECK-NOT: f64
# CHECK: mul %{{[0-9]+}}, %{{[0-9]+}} : f32
# CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : f32
