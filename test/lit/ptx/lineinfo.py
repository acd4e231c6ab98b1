# RUN: %kaji-compile %s --emit ptx --lineinfo -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s --check-prefix=PLAIN
import math

import kaji


@kaji.jit("void(float32[:], float32[:])")
def wave(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = math.sin(x[i]) * 2.0

# CHECK: .visible .entry wave(
# CHECK: .loc [[FILE:[0-9]+]] 11 0
# CHECK: .loc [[FILE]] 12 9
# CHECK: .loc [[FILE]] 14 27
# CHECK: .file [[FILE]] "{{.*}}lineinfo.py"
# CHECK-NOT: .section .debug_info
# PLAIN-NOT: {{\.loc[[:space:]]}}
