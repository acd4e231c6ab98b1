# The nvrtc backend lets a * b ± c contract into one fma, as the LLVM path does (NVRTC's
# --fmad=true, passed outright; docs/sema.md, "Accuracy"): NVVM fuses it, or leaves `mul.f64`
# and `sub.f64` without a rounding modifier, which ptxas may fuse (--fmad=false would give
# `mul.rn.f64`, which it may not).
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s -O0 --backend nvrtc --emit ptx | %FileCheck %s --check-prefix=O0
# At -O0 (Numba's opt=False) NVRTC gets --fmad=false: each operation rounds as written.
import kaji


@kaji.jit("void(float64[::1], float64[::1], float64[::1], float64[::1])")
def multiply_add(out, a, b, c):
    out[0] = a[0] * b[0] + c[0]
    out[1] = c[0] - a[0] * b[0]

# CHECK-LABEL: .entry multiply_add(
# CHECK-NOT: mul.rn.f64
# CHECK: fma.rn.f64
# CHECK: {{fma.rn.f64|mul.f64}}
# CHECK-NOT: {{(mul|sub).rn.f64}}
# CHECK: ret;

# O0-LABEL: .entry multiply_add(
# O0-NOT: fma
# O0: mul.rn.f64
# O0-NOT: fma
# O0: ret;
