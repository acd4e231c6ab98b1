# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:], float8_e5m2[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(out, x):
    out[0] = x[0] * 2

# CHECK: {{.*}}float8_arithmetic.py:6:14: error: a float8_e5m2 value only converts (as CUDA's 8-bit floats): write float32(x) to compute with it, in 'x[0] * 2'
# CHECK-NEXT: {{^}}    out[0] = x[0] * 2{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
