# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float32, int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, x, n):
    out[0] = min(x, 1.0, n)
    out[1] = max(x, 0)
    out[2] = abs(n)

# CHECK: min {{.*}} : f64
# CHECK: max %x, %{{[0-9]+}} : f32
# CHECK: abs %n : i32
