# RUN: %kaji-compile %s --target cpu | %FileCheck %s
# On the host bfloat16 is LLVM's bfloat: a float64 or an int64 reaches it through float32 (two
# roundings, as ml_dtypes converts), and its sum is computed by LLVM in float32 and rounded
# once (by __truncsfbf2 in the host JIT, which keeps subnormals).
import kaji


@kaji.jit("void(bfloat16[::1], float64[::1], int64[::1])")
def narrow(out, wide, whole):
    out[0] = wide[0]
    out[1] = whole[0]
    out[2] = out[3] + out[4]

# CHECK-LABEL: define {{.*}}@narrow.host_entry(
# CHECK: [[SINGLE:%.*]] = fptrunc double {{.*}} to float
# CHECK: fptrunc float [[SINGLE]] to bfloat
# CHECK: [[INT:%.*]] = sitofp i64 {{.*}} to float
# CHECK: fptrunc float [[INT]] to bfloat
# CHECK: fadd bfloat
