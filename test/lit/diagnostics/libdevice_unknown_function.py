# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    a[0] = cuda.libdevice.sinff(a[0])

# CHECK: {{.*}}libdevice_unknown_function.py:6:12: error: cuda.libdevice has no function 'sinff'
# CHECK-NEXT: {{^}}    a[0] = cuda.libdevice.sinff(a[0]){{$}}
