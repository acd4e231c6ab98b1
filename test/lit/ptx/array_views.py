# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], float32[:, ::1])' --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit
def k(out, a):
    i = kaji.grid(1)
    if i < a.shape[0]:
        total = 0.0
        for x in a[i][::-1]:
            total += x
        out[i] = total + a.T[0, i]

# A view is address arithmetic on the parameters: no local memory, no calls.
# CHECK: .visible .entry k(
# CHECK-NOT: .local
# CHECK-NOT: call
# CHECK: ld.global.f32
# CHECK: st.global.f32
