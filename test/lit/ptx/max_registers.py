# RUN: %kaji-compile %s --emit ptx --max-registers 32 -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s --check-prefix=PLAIN
import kaji


@kaji.jit("void(float32[:], float32[:])")
def scale(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * 2.0

# CHECK: .visible .entry scale(
# CHECK: .maxnreg 32
# PLAIN-NOT: .maxnreg
