# RUN: %not %kaji-compile %s --kernel k --sig 'void(bfloat16[:])' --emit ir 2>&1 | %FileCheck %s
import kaji


@kaji.jit
def k(values):
    kaji.atomic.max(values, 0, values[1])

# CHECK: atomic_max_of_bfloat16.py:7:21: error: kaji.atomic.max() works on arrays of 32- and 64-bit numbers (float16 and bfloat16 arrays: add and sub only), not bf16
# CHECK-NEXT:     kaji.atomic.max(values, 0, values[1])
# CHECK-NEXT:                     ^
