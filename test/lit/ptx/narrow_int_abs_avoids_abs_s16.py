# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# ptxas drops the sign extension after abs.s16 (an H100 widened |int16 -32768| to 32768):
# a narrow abs is a 32-bit abs of the sign-extended value, narrowed by cvt.u16.u32
# (PtxasMiscompiledOps.h).
import kaji
import numpy as np


@kaji.jit("void(int64[:], int16[:])")
def widened_abs(out, x):
    out[0] = np.abs(x[0])


# CHECK-LABEL: .entry widened_abs
# CHECK-NOT: abs.s16
# CHECK: cvt.s32.s16 [[WIDE:%[a-z_]+]], %rs
# CHECK-NEXT: abs.s32 [[WIDE]], [[WIDE]];
# CHECK-NEXT: cvt.u16.u32 [[ABS:%rs[0-9]+]], [[WIDE]];
# CHECK: cvt.s64.s16 %rd{{[0-9]+}}, [[ABS]];
