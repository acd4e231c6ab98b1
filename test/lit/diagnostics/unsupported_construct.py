# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


def k(a):
    b = [1, 2]

# CHECK: {{.*}}unsupported_construct.py:8:9: error: lists are not supported in kernels
# CHECK-NEXT: {{^}}    b = [1, 2]{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
