# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import numpy as np

from kaji import cuda


def k(a):
    s = cuda.shared.array(16, np.float32, alignment=48)
    a[0] = s[0]

# CHECK: {{.*}}array_alignment_not_power_of_two.py:8:53: error: alignment must be a constant power of two up to 1024, not '48'
# CHECK-NEXT: {{^}}    s = cuda.shared.array(16, np.float32, alignment=48){{$}}
# CHECK-NEXT: {{^}}                                                    ^{{$}}
