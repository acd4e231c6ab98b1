# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], float32[:], int32[:])' --emit ir | %FileCheck %s
# numpy's nan* reductions skip NaN: nanmax folds with fmax from the first element, nansum reads
# a NaN (x != x) as 0; var of integers computes in float64; count_nonzero adds the truths as
# int64.
import numpy as np

import kaji


@kaji.jit
def k(out, x, n):
    out[0] = np.nanmax(x)
    out[1] = np.nansum(x)
    out[2] = np.var(n)
    out[3] = np.count_nonzero(n)

# CHECK: %[[FIRST:[0-9]+]] = load %x[%0] : f32
# CHECK: math fmax(%{{[0-9]+}}, %{{[0-9]+}}) : f32
# CHECK: %[[V:[0-9]+]] = load %x[
# CHECK: %[[NAN:[0-9]+]] = cmp ne %[[V]], %[[V]] : f32
# CHECK: select %[[NAN]], %{{[0-9]+}}, %[[V]] : f32
# CHECK: cast %{{[0-9]+}} : i32 to f64
# CHECK: sub %{{[0-9]+}}, %{{[0-9]+}} : f64
# CHECK: div %{{[0-9]+}}, %{{[0-9]+}} : f64
# CHECK-NOT: math sqrt
# CHECK: cmp ne %{{[0-9]+}}, %{{[0-9]+}} : i32
# CHECK: cast %{{[0-9]+}} : bool to i64
