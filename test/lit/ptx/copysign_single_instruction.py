# A copysign is PTX's one `copysign` instruction, written or inside libdevice's float32 erf,
# where LLVM 19's NVPTX backend would expand it into six (abs, neg, shift, mask, compare,
# select): SelectCopysign.h. PTX's operands come sign first, magnitude second (the GPU tests
# of math.copysign check the order).
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import math

from kaji import cuda


@cuda.jit("void(float32[::1], float32[::1], float64[::1], float64[::1])")
def signs(magnitude32, sign32, magnitude64, sign64):
    i = cuda.grid(1)
    if i < magnitude32.size:
        magnitude32[i] = math.copysign(magnitude32[i], sign32[i]) + math.erf(sign32[i])
        magnitude64[i] = math.copysign(magnitude64[i], sign64[i])

# CHECK-LABEL: .entry signs(
# CHECK-NOT: shr.u32 {{.*}}, 31;
# CHECK: copysign.f32 {{%f[0-9]+}}, {{%f[0-9]+}}, {{%f[0-9]+}};
# CHECK: copysign.f32
# CHECK: copysign.f64 {{%fd[0-9]+}}, {{%fd[0-9]+}}, {{%fd[0-9]+}};
# CHECK-NOT: shr.u32 {{.*}}, 31;
# CHECK: }
