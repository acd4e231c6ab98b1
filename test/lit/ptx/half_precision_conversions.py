# cuda.bf16's and cuda.fp16's reinterpretations are moves of the bits (no conversion); a
# directed rounding is the nearest-even conversion stepped by integer arithmetic, and an
# integer reaches float32 through its leading-zero count (round to odd), with no sm_90-only
# instruction.
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit("void(bfloat16[::1], float16[::1], int16[::1], int64[::1], float32[::1])")
def conversions(b, h, bits, big, single):
    bits[0] = cuda.bf16.bfloat16_as_int16(b[0])
    h[0] = cuda.fp16.__ushort_as_half(cuda.fp16.__half_as_ushort(h[1]))
    b[1] = cuda.bf16.int64_to_bfloat16_ru(big[0])
    h[2] = cuda.fp16.__float2half_rz(single[0])

# IR: bitcast {{.*}} : bf16 to i16
# IR: bitcast {{.*}} : f16 to u16
# IR: bitcast {{.*}} : u16 to f16
# IR: bits clz({{.*}}) : u64
# IR: bitcast {{.*}} : u32 to f32
# IR: cast {{.*}} : f32 to bf16
# IR: bitcast {{.*}} : bf16 to u16
# IR: cast {{.*}} : f32 to f16
# CHECK: clz.b64
# CHECK: cvt.rn.f16.f32
# CHECK-NOT: cvt.rz
