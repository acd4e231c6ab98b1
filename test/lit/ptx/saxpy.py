# RUN: %kaji-compile %s --kernel saxpy --sig 'void(float32[:], float32, float32[:], float32[:])' --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

# CHECK: .target sm_90
# CHECK: .address_size 64
# CHECK: .visible .entry saxpy(
# CHECK: mov.u32 {{%r[0-9]+}}, %tid.x;
# CHECK: ld.global.f32
# CHECK: fma.rn.f32
# CHECK: st.global.f32
# CHECK: ret;
