# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float64[:], float64[:], float64[:])")
def vector_add(out, x, y):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = x[i] + y[i]

# CHECK: .visible .entry vector_add(
# CHECK: ld.global.f64
# CHECK: add.rn.f64
# CHECK: st.global.f64
