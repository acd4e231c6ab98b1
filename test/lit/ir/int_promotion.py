# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int32, int64, uint64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, b, c):
    out[0] = a + b
    out[1] = b + c
    out[2] = a + 1

# CHECK: %[[A:[0-9]+]] = cast %a : i32 to i64
# CHECK: add %[[A]], %b : i64
# int64 + uint64 has no common integer type: numpy gives float64.
# CHECK: cast %b : i64 to f64
# CHECK: cast %c : u64 to f64
# CHECK: add {{.*}} : f64
# The literal stays int32.
# CHECK: add %a, %{{[0-9]+}} : i32
