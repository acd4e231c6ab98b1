# NVRTC's PTX gets the LLVM path's fix for ptxas's abs.s32/abs.s64 fault
# (kaji/codegen/PtxasMiscompiledOps.h): ptxas takes their result to be non-negative, so no
# abs of a 32- or 64-bit integer reaches it.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np
from kaji import cuda


@cuda.jit("void(float64[:], int64[:], int32[:])")
def exp_of_abs(out, x, y):
    out[0] = np.exp(np.abs(x[0]))
    out[1] = np.exp(abs(y[0]))

# CHECK-NOT: abs.s64
# CHECK: neg.s64 %kaji_negated
# CHECK-NOT: abs.s{{32|64}}
# CHECK: neg.s32 %kaji_negated
# CHECK-NOT: abs.s{{32|64}}
