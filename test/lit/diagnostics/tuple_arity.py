# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    i, j = kaji.grid(3)

# CHECK: {{.*}}tuple_arity.py:8:5: error: too many values to unpack (expected 2, got 3)
# CHECK-NEXT: {{^}}    i, j = kaji.grid(3){{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
