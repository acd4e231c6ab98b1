# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], float32[:, :])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a):
    out[0] = len(a) + len(a.shape)

# CHECK: %[[N:[0-9]+]] = array_dim %a, 0 : i64
# CHECK: add %[[N]], %{{[0-9]+}} : i64
