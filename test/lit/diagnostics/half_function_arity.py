# RUN: %not %kaji-compile %s --kernel k --sig 'void(float16[:])' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(h):
    h[0] = cuda.fp16.__hfma_relu(h[1], h[2])

# CHECK: half_function_arity.py:7:12: error: cuda.fp16.__hfma_relu() takes 3 arguments (2 given)
