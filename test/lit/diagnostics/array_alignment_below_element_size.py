# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import numpy as np

from kaji import cuda


def k(a):
    s = cuda.local.array(4, np.float64, alignment=4)
    a[0] = s[0]

# CHECK: {{.*}}array_alignment_below_element_size.py:8:51: error: alignment 4 is less than the 8-byte element size
# CHECK-NEXT: {{^}}    s = cuda.local.array(4, np.float64, alignment=4){{$}}
# CHECK-NEXT: {{^}}                                                  ^{{$}}
