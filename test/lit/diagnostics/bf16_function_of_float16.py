# RUN: %not %kaji-compile %s --kernel k --sig 'void(float16[:])' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(h):
    h[0] = cuda.bf16.hadd(h[1], h[2])

# CHECK: bf16_function_of_float16.py:7:27: error: cuda.bf16.hadd() takes bfloat16 values, not 'float16' (convert with cuda.bfloat16(x))
