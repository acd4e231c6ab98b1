# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:, :], float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a, out):
    for row in a:
        out[0] = 1.0

# CHECK: {{.*}}iterate_2d_array.py:6:16: error: kernels iterate over 1-d arrays only; 'a' is float32[:, :]; index it in a range() loop instead
# CHECK-NEXT: {{^}}    for row in a:{{$}}
# CHECK-NEXT: {{^}}               ^{{$}}
