# atomic.add and sub of float16 and bfloat16 elements: sm_90 has atom.add.noftz for both;
# sub adds the negated value.
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ptx --arch sm_80 | %FileCheck %s --check-prefix=SM80
from kaji import cuda


@cuda.jit("void(float16[::1], bfloat16[::1])")
def half_atomics(h, b):
    cuda.atomic.add(h, 0, h[1])
    cuda.atomic.sub(b, 0, b[1])

# CHECK: atom.global.add.noftz.f16
# CHECK: atom.global.add.noftz.bf16
# SM80: atom.global.add.noftz.f16
# SM80: atom.global.cas.b32
