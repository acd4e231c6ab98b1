# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit(device=True, inline="never")
def scale(v, factor):
    return v * factor


@kaji.jit("void(float32[:])")
def k(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] = scale(a[i], a[0])

# A device function with inline="never" stays a function the kernel calls.
# CHECK: .func {{.*}}scale__f32_f32
# CHECK: .visible .entry k(
# CHECK: call.uni
