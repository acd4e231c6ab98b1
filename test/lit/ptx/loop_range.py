# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float32[:, ::1], float32[:])")
def row_sums(m, out):
    i = kaji.grid(1)
    if i < m.shape[0]:
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s

# CHECK: .visible .entry row_sums(
# CHECK: add.rn.f32
# CHECK: bra
# CHECK: st.global.f32
