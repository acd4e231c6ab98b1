# RUN: %kaji-compile %s | %FileCheck %s
# RUN: %kaji-compile %s | %ptxas -
# A saturating float-to-integer conversion is one cvt.rzi (PTX's cvt saturates and gives 0 for
# NaN), never LLVM's expansion into max.f64/min.f64 before the cvt: ptxas moved that max ahead
# of the kernel's own min(x, 1.0), so NaN converted to 0 instead of 1 (program differential,
# seed 1013 #272 on the H100). Narrower results clamp the 32-bit result as integers. The
# kernel's min is a selp (python_min_not_min_instruction.py).
import numpy as np

import kaji


@kaji.jit("void(uint32[::1], uint8[::1], float64[::1])")
def clamp_then_convert(wide, narrow, x):
    i = kaji.grid(1)
    if i < x.size:
        wide[i] = np.uint32(min(1.0, x[i]))
        narrow[i] = np.uint8(x[i])

# CHECK-LABEL: .entry clamp_then_convert(
# CHECK-NOT: max.f64
# CHECK: setp.lt.f64 {{%p[0-9]+}}, {{%fd[0-9]+}}, 0d3FF0000000000000;
# CHECK: selp.f64 [[CLAMPED:%fd[0-9]+]],
# CHECK-NOT: max.f64
# CHECK: cvt.rzi.u32.f64 {{%r[0-9]+}}, [[CLAMPED]];
# CHECK: cvt.rzi.u32.f64 [[NARROW:%r[0-9]+]],
# CHECK: min.u32 {{%r[0-9]+}}, [[NARROW]], 255;
