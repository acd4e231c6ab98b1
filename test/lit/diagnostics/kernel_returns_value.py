# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    return a[0]

# CHECK: {{.*}}kernel_returns_value.py:8:5: error: a kernel cannot return a value ('return a[0]'); write results into an array argument
# CHECK-NEXT: {{^}}    return a[0]{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
