# A real number is converted to bfloat16 as a C++ call converts it; a complex one is no argument.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(complex64[:])' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(h):
    h[0] = cuda.bf16.hadd(h[1], h[2])

# CHECK: bf16_function_of_complex.py:8:27: error: cuda.bf16.hadd() takes bfloat16 values (or real numbers, converted), not 'complex64'
