# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    a[0] = foo + 1

# CHECK: {{.*}}unknown_name.py:8:12: error: name 'foo' is not defined
# CHECK-NEXT: {{^}}    a[0] = foo + 1{{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
