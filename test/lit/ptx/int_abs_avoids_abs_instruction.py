# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# ptxas takes the result of abs.s32/abs.s64 to be non-negative, but |INT_MIN| wraps to INT_MIN:
# an H100 gave inf for np.exp(np.abs(int64 min)) because ptxas dropped libdevice's `x < 0`
# test of the converted value. The PTX holds no abs.s32/abs.s64: each is a compare, a negation
# and a select (kaji/codegen/PtxasMiscompiledOps.h).
import kaji
import numpy as np


@kaji.jit("void(float64[:], int64[:], int32[:])")
def exp_of_abs(out, x, y):
    out[0] = np.exp(np.abs(x[0]))
    out[1] = np.exp(abs(y[0]))


# CHECK-LABEL: .entry exp_of_abs
# CHECK-NOT: abs.s64
# CHECK: setp.lt.s64 [[NEGATIVE:%kaji_negative]], [[X:%rd[0-9]+]], 0;
# CHECK-NEXT: neg.s64 [[NEGATED:%kaji_negated]], [[X]];
# CHECK-NEXT: selp.b64 [[ABS:%rd[0-9]+]], [[NEGATED]], [[X]], [[NEGATIVE]];
# CHECK: cvt.rn.f64.s64 %fd{{[0-9]+}}, [[ABS]];
# CHECK-NOT: abs.s32
# CHECK: setp.lt.s32 [[NEGATIVE32:%kaji_negative]], [[Y:%r[0-9]+]], 0;
# CHECK-NEXT: neg.s32 [[NEGATED32:%kaji_negated]], [[Y]];
# CHECK-NEXT: selp.b32 [[ABS32:%r[0-9]+]], [[NEGATED32]], [[Y]], [[NEGATIVE32]];
# CHECK: cvt.rn.f64.s32 %fd{{[0-9]+}}, [[ABS32]];
# CHECK-NOT: abs.s{{32|64}}
