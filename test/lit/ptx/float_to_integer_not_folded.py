# RUN: %kaji-compile %s | %FileCheck %s
# RUN: %kaji-compile %s | %ptxas -
# int16(float64(x)) of an int64 x converts twice and saturates. The cvt is inline assembly:
# LLVM's NVPTX InstCombine rewrote the llvm.nvvm.d2i.rz intrinsic as fptosi, folded
# fptosi(sitofp x) into x, and int16(float64(2**63 - 2)) became the truncation -2.
import numpy as np

import kaji


@kaji.jit("void(int16[::1], int64[::1])")
def through_float64(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = np.int16(np.float64(x[i]))

# CHECK-LABEL: .entry through_float64(
# CHECK: cvt.rn.f64.s64 [[WIDE:%fd[0-9]+]],
# CHECK: cvt.rzi.s32.f64 [[NARROW:%r[0-9]+]], [[WIDE]];
# CHECK: min.s32 {{%r[0-9]+}}, [[NARROW]], 32767;
