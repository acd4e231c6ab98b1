# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a):
    for i, x, y in enumerate((1.0, 2.0)):
        a[i] = x

# CHECK: {{.*}}unrolled_loop_unpack_count.py:6:9: error: not enough values to unpack (expected 3, got 2)
# CHECK-NEXT: {{^}}    for i, x, y in enumerate((1.0, 2.0)):{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
