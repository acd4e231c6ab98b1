# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a):
    t = (1.0, 2.0)
    a[0] = t[2]

# CHECK: {{.*}}tuple_index_out_of_range.py:7:14: error: tuple index out of range in 't[2]' (the tuple has 2 elements)
# CHECK-NEXT: {{^}}    a[0] = t[2]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
