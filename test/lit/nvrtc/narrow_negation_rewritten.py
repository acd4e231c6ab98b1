# NVRTC's PTX gets the same fix for ptxas's 16-bit negation fault as the LLVM path's
# (kaji/codegen/PtxasMiscompiledOps.h): no neg.s16 or abs.s16 reaches ptxas.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(int16[:], int64[:])")
def narrow_negation(x, out):
    i = cuda.grid(1)
    out[i] = -x[i]
    out[i + 1] = abs(x[i + 1])

# CHECK-NOT: neg.s16
# CHECK-NOT: abs.s16
# CHECK: cvt.u16.u32
