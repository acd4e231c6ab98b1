# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    a[0] = cuda.libdevice.atan2f(a[0])

# CHECK: {{.*}}libdevice_argument_count.py:6:12: error: libdevice.atan2f() takes 2 arguments, got 1
