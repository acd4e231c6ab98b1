# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a):
    for x, y in zip(a, a, a):
        a[0] = x + y

# CHECK: {{.*}}loop_unpack_count.py:6:9: error: too many values to unpack (expected 2, got 3)
# CHECK-NEXT: {{^}}    for x, y in zip(a, a, a):{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
