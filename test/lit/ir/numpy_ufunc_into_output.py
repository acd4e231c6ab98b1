# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:, ::1], float32[::1], float32[:, ::1])' --emit ir | %FileCheck %s
# numpy's ufunc on arrays with an output: a loop nest over the output, the row broadcast (an
# extent of 1 reads index 0), the operator's own IR.
import numpy as np

import kaji


@kaji.jit
def k(a, row, out):
    np.add(a, row, out)

# CHECK-LABEL: kernel @k(%a: array<f32, 2, C>, %row: array<f32, 1, C>, %out: array<f32, 2, C>)
# CHECK: array_dim %row, 0 : i64
# CHECK: select
# CHECK: load %row[
# CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : f32
# CHECK: store %{{[0-9]+}}, %out[
