# bfloat16 in CUDA C++ is the prelude's bf16: its bits, converted through float32 by integer
# rounding (no sm_80 instruction needed); arithmetic rounds float32's result once; a float64
# goes through float32; atomics of it are a compare-and-swap loop.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(bfloat16[::1], float64[::1], float16[::1])")
def bfloat16_kernel(out, wide, h):
    out[0] = out[1] * out[2]
    out[3] = wide[0]
    out[4] = cuda.bf16.hsqrt(out[5])
    out[6] = h[0]
    cuda.atomic.add(out, 7, out[8])
    cuda.atomic.sub(h, 1, h[2])

# CHECK: extern "C" __global__ void bfloat16_kernel(bf16 *out_data
# CHECK-DAG: bf16(f32(v{{[0-9]+}}) * f32(v{{[0-9]+}}))
# CHECK-DAG: bf16(f32(v{{[0-9]+}}))
# CHECK-DAG: sqrtf(v{{[0-9]+}}); v{{[0-9]+}} = bf16(v{{[0-9]+}})
# CHECK-DAG: kaji::atomic_add(kaji::element(out, {{.*}}), v{{[0-9]+}})
# CHECK-DAG: kaji::atomic_sub(kaji::element(h, {{.*}}), v{{[0-9]+}})
