# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@kaji.jit("void(float32[:])")
def k(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] = clamp(a[i], 0.0, 1.0)

# Device functions are inlined into the kernel; only the entry is visible.
# Python's min/max (b < a ? b : a) keep a NaN first operand, unlike PTX min/max.
# CHECK-NOT: .func
# CHECK: .visible .entry k(
# CHECK-NOT: call
# CHECK: setp
# CHECK: selp.f32
# CHECK-NOT: min.f32
