# The bits of a float16 must be those of a float16: a float32 is not converted first.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(int16[:], float32)' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(out, x):
    out[0] = cuda.fp16.__half_as_short(x)

# CHECK: half_reinterpretation_of_other_float.py:8:40: error: cuda.fp16.__half_as_short() takes a float16 value, not 'float32' (convert with cuda.float16(x))
