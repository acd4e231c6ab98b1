# The CUDA C++ backend: float16's + - *, comparisons, negation and abs are the prelude's
# operators, which are the GPU's float16 instructions (sm_53 and later); division goes
# through float32, bfloat16 too. Without fast math each is rounded (.rn) but a multiply that
# only an add reads, which ptxas may fuse with it.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s --check-prefix=CUDA
# RUN: %kaji-compile %s --backend nvrtc --emit ptx --arch sm_75 | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float16[:], bool_[:], bfloat16[:], float16, float16, bfloat16)")
def k(out, flags, wide, a, b, c):
    out[0] = a + b
    out[1] = a - b
    out[2] = a * b
    out[3] = a / b
    out[4] = -a
    out[5] = abs(b)
    flags[0] = a > b
    flags[1] = a != b
    wide[0] = c + c
    out[6] = b * b + out[7]

# CUDA: = a + b;
# CUDA: = a - b;
# CUDA: = a * b;
# CUDA: = f16(f32(a) / f32(b));
# CUDA: = kaji::neg(a);
# CUDA: = kaji::abs(b);
# CUDA: = a > b;
# CUDA: = a != b;
# CUDA: = bf16(f32(c) + f32(c));

# CHECK-DAG: add.rn.f16
# CHECK-DAG: sub.rn.f16
# CHECK-DAG: mul.rn.f16
# CHECK-DAG: neg.f16
# CHECK-DAG: abs.f16
# CHECK-DAG: setp.gt.f16
# CHECK-DAG: setp.neu.f16
# CHECK-DAG: mul.f16 [[PRODUCT:%rs[0-9]+]]
# CHECK-DAG: add.f16 {{%rs[0-9]+}}, [[PRODUCT]]
