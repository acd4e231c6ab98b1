# Fast math flushes float32 denormals (.ftz), but PTX has no .ftz form of a bfloat16
# instruction: a function with bfloat16 arithmetic keeps float32 denormals, so that ptxas
# takes its PTX on every architecture, natively bfloat16 (sm_90) or through float32 (sm_80).
# A conversion to float32 has an .ftz form only from sm_90, so it keeps denormals too.
# RUN: %kaji-compile %s --fastmath --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --fastmath --emit ptx | %FileCheck %s --check-prefix=NO-FTZ
# RUN: %kaji-compile %s --fastmath --emit ptx -o %t.sm90.ptx
# RUN: %ptxas-for --gpu-name sm_90 %t.sm90.ptx
# RUN: %kaji-compile %s --fastmath --arch sm_86 --emit ptx -o %t.sm86.ptx
# RUN: %ptxas-for --gpu-name sm_86 %t.sm86.ptx
# RUN: %kaji-compile %s --fastmath --arch sm_80 --emit ptx -o %t.sm80.ptx
# RUN: %ptxas-for --gpu-name sm_80 %t.sm80.ptx
# RUN: %kaji-compile %s --fastmath --emit ptx --kernel float32_only | %FileCheck %s --check-prefix=FLOAT32
# RUN: %kaji-compile %s --fastmath --arch sm_86 --emit ptx --kernel widened -o %t.widened.ptx
# RUN: %FileCheck %s --check-prefix=WIDENED < %t.widened.ptx
# RUN: %ptxas-for --gpu-name sm_86 %t.widened.ptx
from kaji import cuda


@cuda.jit("void(bfloat16[::1], bfloat16[::1])")
def bfloat16_fastmath(out, x):
    i = cuda.grid(1)
    if x[i] < out[i]:
        out[i] = x[i] * out[i] + x[i]
    out[i] = -out[i] - x[i]


@cuda.jit("void(float32[::1], float32[::1])")
def float32_only(out, x):
    i = cuda.grid(1)
    out[i] = x[i] * out[i] + x[i]

@cuda.jit("void(float32[::1], bfloat16[::1])")
def widened(out, x):
    i = cuda.grid(1)
    out[i] = float(x[i]) * 2.0

# CHECK: setp.{{[a-z]+}}.bf16
# CHECK: fma.rn.bf16
# NO-FTZ-NOT: .ftz.bf16
# FLOAT32: fma.rn.ftz.f32
# WIDENED: cvt.f32.bf16
# WIDENED-NOT: .ftz
