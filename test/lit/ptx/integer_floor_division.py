# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(int32[:], int32[:], int32[:])")
def k(out, a, b):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = a[i] // b[i] + a[i] % b[i]

# CHECK: .visible .entry k(
# One hardware division serves both: the remainder is derived from the quotient.
# CHECK: div.s32
# CHECK-NOT: div.s32
