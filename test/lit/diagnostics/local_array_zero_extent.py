# Only a shared array may have shape 0 (the dynamic shared memory).
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import numpy as np

from kaji import cuda


def k(a):
    s = cuda.local.array(0, np.float32)
    a[0] = s[0]

# CHECK: {{.*}}local_array_zero_extent.py:9:26: error: the shape of a local array must be positive constant integers, not '0'
# CHECK-NEXT: {{^}}    s = cuda.local.array(0, np.float32){{$}}
# CHECK-NEXT: {{^}}                         ^{{$}}
