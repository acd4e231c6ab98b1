# In CUDA C++ a reinterpretation is kaji::bit_cast (a memcpy: f16 and bf16 are structs of
# their bits); the directed roundings are integer arithmetic on the bits, so NVRTC needs no
# sm_90 conversion instruction.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(bfloat16[::1], float16[::1], int16[::1], uint32[::1])")
def conversions(b, h, bits, small):
    bits[0] = cuda.bf16.bfloat16_as_int16(b[0])
    h[0] = cuda.fp16.__short_as_half(bits[1])
    b[1] = cuda.bf16.uint32_to_bfloat16_rd(small[0])

# CHECK-DAG: kaji::bit_cast<i16>(v{{[0-9]+}})
# CHECK-DAG: kaji::bit_cast<f16>(v{{[0-9]+}})
# CHECK-DAG: kaji::clz(v{{[0-9]+}})
# CHECK-DAG: kaji::bit_cast<f32>(v{{[0-9]+}})
# CHECK-DAG: kaji::bit_cast<bf16>(v{{[0-9]+}})
