# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], float32[])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, x):
    out[0] = x.size
    out[1] = x.ndim + len(x.shape)
    x[()] = x[()] * 2

# A 0-d array has size 1 (the product of no extents), ndim 0, shape () and one element,
# indexed by the empty tuple.
# CHECK-LABEL: kernel @k(%out: array<i64, 1, any>, %x: array<f32, 0, any>)
# CHECK: %[[ONE:[0-9]+]] = const 1 : i64
# CHECK: store %[[ONE]], %out[%[[ZERO:[0-9]+]]]
# CHECK: store %[[ZERO]], %out[%[[ONE]]]
# CHECK: %[[V:[0-9]+]] = load %x[] : f32
# CHECK: mul %[[V]]
# CHECK: store %{{[0-9]+}}, %x[]
