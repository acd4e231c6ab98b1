# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float32[:])' --emit ir | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = x[i] + cuda.threadIdx.x

# CHECK: sreg tid.x
# CHECK: array_dim %out, 0
# CHECK: load %x
# CHECK: store
