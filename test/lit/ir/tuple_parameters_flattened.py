# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], Tuple(UniTuple(int64 x 2), float32[:]), NamedTuple(Point, x=float32, y=float64))' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, t, p):
    (i, j), a = t
    out[0] = a[i] + a[j] + p.x + p.y

# A tuple parameter is its leaves, one IR parameter each, named after their positions.
# CHECK-LABEL: kernel @k(%out: array<f64, 1, any>, %t_0_0: i64, %t_0_1: i64, %t_1: array<f32, 1, any>, %p_0: f32, %p_1: f64)
# CHECK: cmp lt %t_0_0
# CHECK: load %t_1[
