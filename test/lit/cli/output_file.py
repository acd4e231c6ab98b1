# RUN: rm -f %t.ptx
# RUN: %kaji-compile %s -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
import kaji


@kaji.jit("void(float32[:])")
def k(a):
    a[0] = 0.0

# Without --emit, the output is PTX.
# CHECK: .visible .entry k(
