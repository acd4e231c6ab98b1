# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit(device=True)
def scale(v, factor):
    return v * factor


@kaji.jit
def k(a):
    a[0] = scale(a[0], a[1])
    a[1] = scale(a[1], 3)

# One specialisation per argument-type tuple; a literal argument is marked weak.
# CHECK: call @scale__f32_f32(%{{[0-9]+}}, %{{[0-9]+}}) : f32
# CHECK: call @scale__f32_i64w(%{{[0-9]+}}, %{{[0-9]+}}) : f32
# CHECK-DAG: device @scale__f32_f32(%v: f32, %factor: f32) -> f32
# CHECK-DAG: device @scale__f32_i64w(%v: f32, %factor: i64) -> f32
