# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    a[0] = math.tau2

# CHECK: {{.*}}unknown_attribute.py:8:12: error: module 'math' has no attribute 'tau2'
# CHECK-NEXT: {{^}}    a[0] = math.tau2{{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
