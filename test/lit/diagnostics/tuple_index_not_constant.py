# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a, i):
    t = (1.0, a)
    a[0] = t[i]

# A tuple of mixed element types has no run-time index.
# CHECK: {{.*}}tuple_index_not_constant.py:7:14: error: tuple indices must be constant integers in 't[i]'
# CHECK-NEXT: {{^}}    a[0] = t[i]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
