# A name rebound to a value of another type where no read sees both is two variables
# (frontend/src/lowering/VariableWebs.h): the int64 parameter stays an integer for the floor
# division before it is rebound to a float64 and to a 1-d view.
# RUN: %kaji-compile %s --emit ir | %FileCheck %s
import kaji


@kaji.jit("void(float64[:, ::1], int64)")
def rebound(out, x):
    out[0, 0] = x // 2
    x = float(x)
    out[0, 1] = x / 4
    x = out.reshape(out.size)
    x[2] = 1.5

# CHECK-LABEL: kernel @rebound(
# CHECK: floordiv %x, {{.*}} : i64
# CHECK: cast %x : i64 to f64
# CHECK: div {{.*}} : f64
# CHECK: ret
