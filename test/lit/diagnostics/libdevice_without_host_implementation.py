# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --target cpu 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    a[0] = cuda.libdevice.dadd_rd(a[0], a[1])

# CHECK: {{.*}}libdevice_without_host_implementation.py:6:12: error: cuda.libdevice.dadd_rd has no implementation on the cpu target (it compiles for the cuda target only)
# CHECK-NEXT: {{^}}    a[0] = cuda.libdevice.dadd_rd(a[0], a[1]){{$}}
