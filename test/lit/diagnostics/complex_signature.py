# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(complex64[:])")
def k(a):
    pass

# CHECK: {{.*}}complex_signature.py:5:17: error: complex numbers (complex64) are not supported by kaji kernels
# CHECK-NEXT: {{^}}@kaji.jit("void(complex64[:])"){{$}}
# CHECK-NEXT: {{^}}                ^{{$}}
