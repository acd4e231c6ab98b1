# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(float32[:, ::2])")
def k(a):
    a[0, 0] = 1.0

# The caret points into the signature string of the decorator.
# CHECK: {{.*}}bad_signature.py:5:30: error: expected '1' after '::' (only '::1' marks a contiguous dimension), found '2'
# CHECK-NEXT: {{^}}@kaji.jit("void(float32[:, ::2])"){{$}}
# CHECK-NEXT: {{^}}                             ^{{$}}
