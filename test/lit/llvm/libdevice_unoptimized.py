# RUN: %kaji-compile %s -O0 --emit llvm | %FileCheck %s
import math

import kaji


@kaji.jit("void(float32[:])")
def k(a):
    a[0] = math.tanh(a[0])

# CHECK: call {{.*}}float @__nv_tanhf(float
