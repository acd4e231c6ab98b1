# A reinterpretation converts a real number to float16 first; a complex one is no argument.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(int16[:], complex64)' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(out, x):
    out[0] = cuda.fp16.__half_as_short(x)

# CHECK: half_reinterpretation_of_complex.py:8:40: error: cuda.fp16.__half_as_short() takes a float16 value, not 'complex64'
