# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    b = a + 1

# CHECK: {{.*}}type_mismatch.py:8:9: error: cannot add 'float32[:]' and 'int64' in 'a + 1'
# CHECK-NEXT: {{^}}    b = a + 1{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
