# A float is no argument of a conversion from an integer: C would truncate it silently.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(bfloat16[:], float32)' --emit ir 2>&1 | %FileCheck %s
from kaji import cuda


@cuda.jit
def k(out, x):
    out[0] = cuda.bf16.int32_to_bfloat16_rz(x)

# CHECK: half_conversion_of_float_to_integer_parameter.py:8:45: error: cuda.bf16.int32_to_bfloat16_rz() takes an int32 value, not 'float32'
# CHECK-NEXT:     out[0] = cuda.bf16.int32_to_bfloat16_rz(x)
# CHECK-NEXT:                                             ^
