# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], int64, float32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, n, x):
    out[0] = n ** 3
    out[1] = x ** 2
    out[2] = n ** 0.5

# int ** int stays int; float32 ** literal stays float32; int ** float is float64.
# CHECK: pow %n, %{{[0-9]+}} : i64
# CHECK: pow %x, %{{[0-9]+}} : f32
# CHECK: pow %{{[0-9]+}}, %{{[0-9]+}} : f64
