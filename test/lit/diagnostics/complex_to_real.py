# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(float32[:], complex64)")
def k(out, z):
    out[0] = z

# CHECK: {{.*}}complex_to_real.py:7:9: error: cannot convert complex64 to float32 (the imaginary part would be lost); take .real or abs() of it
# CHECK-NEXT: {{^}}    out[0] = z{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
