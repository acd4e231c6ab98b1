# bfloat16 is LLVM's `bfloat` on the GPU: sm_90 adds and multiplies it natively; a float64
# reaches it through float32 (two roundings, as ml_dtypes converts); cuda.bf16's functions
# compute in float32 and round once.
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit("void(bfloat16[::1], bfloat16[::1], float64[::1])")
def bfloat16_arithmetic(out, a, wide):
    out[0] = a[0] + a[1]
    out[1] = wide[0]
    out[2] = cuda.bf16.hsin(a[0])

# CHECK: add{{.*}}.bf16
# CHECK: cvt.rn.f32.f64
# CHECK: cvt.rn.bf16.f32
# IR: add {{.*}} : bf16
# IR: cast {{.*}} : f64 to bf16
# IR: cast {{.*}} : bf16 to f32
# IR: cast {{.*}} : f32 to bf16
