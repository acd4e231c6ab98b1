# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import math

import kaji


@kaji.jit("void(float64[:], complex128)")
def k(out, z):
    out[0] = math.sqrt(z).real

# CHECK: {{.*}}math_of_complex.py:9:14: error: math.sqrt() does not take complex numbers ('complex128' in 'math.sqrt(z)'); use cmath
