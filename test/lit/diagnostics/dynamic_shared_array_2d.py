# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import numpy as np

from kaji import cuda


def k(a):
    s = cuda.shared.array((0, 4), np.float32)
    a[0] = s[0, 0]

# CHECK: {{.*}}dynamic_shared_array_2d.py:8:27: error: the shape of a shared array must be positive constant integers (or 0 for dynamic shared memory), not '(0, 4)'
# CHECK-NEXT: {{^}}    s = cuda.shared.array((0, 4), np.float32){{$}}
# CHECK-NEXT: {{^}}                          ^{{$}}
