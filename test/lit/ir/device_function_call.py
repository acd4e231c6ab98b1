# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit(device=True)
def scale(v, factor):
    return v * factor


@kaji.jit
def k(a):
    a[0] = scale(a[0], a[1])
    a[1] = scale(a[1], 3)
    a[2] = scale(a[2], 0.5)

# One specialisation per argument-type tuple; a float literal argument is marked weak, an int
# literal is a compile-time argument: the callee is specialised on its value.
# CHECK: call @scale__f32_f32(%{{[0-9]+}}, %{{[0-9]+}}) : f32
# CHECK: call @scale__f32_KLi64_3(%{{[0-9]+}}) : f32
# CHECK: call @scale__f32_f64w(%{{[0-9]+}}, %{{[0-9]+}}) : f32
# CHECK-DAG: device @scale__f32_f32(%v: f32, %factor: f32) -> f32
# CHECK-DAG: device @scale__f32_KLi64_3(%v: f32) -> f32
# CHECK-DAG: device @scale__f32_f64w(%v: f32, %factor: f64) -> f32
