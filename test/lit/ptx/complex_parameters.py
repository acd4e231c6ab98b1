# A complex scalar parameter is two parameters of its part type (Codegen.h's ABI); complex
# elements load and store as their parts, aligned as the parts.
# RUN: %kaji-compile %s --kernel k --sig 'void(complex128[:], complex128, complex64[:])' --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit
def k(out, z, x):
    out[0] = z * x[0] + out[1]

# CHECK-LABEL: .entry k(
# CHECK: .param .u64 {{.*}}k_param_0
# CHECK: .param .f64 {{.*}}k_param_3
# CHECK: .param .f64 {{.*}}k_param_4
# CHECK: ld.global.f32
# CHECK: st.global.f64
