# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:], float32[])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(out, x):
    out[0] = len(x)

# CHECK: {{.*}}zero_dim_array_len.py:6:14: error: len() of a 0-d array is undefined (numpy's 'len() of unsized object'); use .size in 'len(x)'
# CHECK-NEXT: {{^}}    out[0] = len(x){{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
