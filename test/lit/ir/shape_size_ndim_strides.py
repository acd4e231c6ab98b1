# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], float32[:, :])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a):
    n, m = a.shape
    out[0] = n
    out[1] = a.size
    out[2] = a.ndim
    out[3] = a.strides[1]

# CHECK-DAG: %[[N:[0-9]+]] = array_dim %a, 0 : i64
# CHECK-DAG: %[[M:[0-9]+]] = array_dim %a, 1 : i64
# CHECK: store %[[N]], %out
# CHECK: %[[SIZE:[0-9]+]] = mul %[[N]], %[[M]] : i64
# CHECK: store %[[SIZE]], %out
# CHECK: %[[NDIM:[0-9]+]] = const 2 : i64
# CHECK: store %[[NDIM]], %out
# CHECK: %[[STRIDE:[0-9]+]] = array_stride %a, 1 : i64
# CHECK: store %[[STRIDE]], %out
