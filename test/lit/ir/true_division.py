# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], int32, int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, b):
    out[0] = a / b

# CHECK-DAG: cast %a : i32 to f64
# CHECK-DAG: cast %b : i32 to f64
# CHECK: div {{.*}} : f64
