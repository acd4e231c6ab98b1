# RUN: %kaji-compile %s --emit llvm -o %t.ll
# RUN: %FileCheck %s --check-prefix=LLVM < %t.ll
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float32[:], int32[:])")
def k(out, bits):
    i = cuda.grid(1)
    if i < out.size:
        s, c = cuda.libdevice.sincosf(out[i])
        out[i] = cuda.libdevice.fast_expf(s) + c
        bits[i] = cuda.libdevice.popc(bits[i])

# The frontend asks for each value of sincosf; LLVM merges the two calls after libdevice is
# inlined, so the PTX assembles with no calls left.
# LLVM-NOT: call {{.*}}@__nv_
# LLVM: define
