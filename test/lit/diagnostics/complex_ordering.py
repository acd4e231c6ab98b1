# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(complex64[:], boolean[:])")
def k(x, out):
    out[0] = x[0] < x[1]

# CHECK: {{.*}}complex_ordering.py:7:14: error: '<' is not supported between 'complex64' and 'complex64' in 'x[0] < x[1]': complex numbers have no order
# CHECK-NEXT: {{^}}    out[0] = x[0] < x[1]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
