# -(a <= b) is -1 for a true comparison: InstCombine turns bool → int, negate, int → float into
# `sitofp i1`, which LLVM 19's NVPTX backend lowers as unsigned (selp 1, 0). kaji rewrites it
# into a select of -1.0 and 0.0 before the backend (codegen/nvptx/src/SignedBoolToFloat.h).
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float64[:], uint8[:], float16[:])")
def negated_comparison(out, a, b):
    out[0] = 2147483648.0 - (-(b[0] <= a[0] != False))

# CHECK-NOT: selp.u32 {{.*}}, 1, 0,
# 2**31 + 1 when both comparisons hold:
# CHECK: selp.f64 {{%fd[0-9]+}}, 0d41E0000000200000, 0d41E0000000000000,
