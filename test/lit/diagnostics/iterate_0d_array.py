# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[], float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a, out):
    for x in a:
        out[0] = x

# CHECK: {{.*}}iterate_0d_array.py:6:14: error: 'a' is float32[]: numpy cannot iterate over a 0-d array
# CHECK-NEXT: {{^}}    for x in a:{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
