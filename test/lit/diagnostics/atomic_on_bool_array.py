# RUN: %not %kaji-compile %s --kernel k --sig 'void(boolean[:])' --emit ir 2>&1 | %FileCheck %s
import kaji


@kaji.jit
def k(flags):
    kaji.atomic.or_(flags, 0, True)

# CHECK: atomic_on_bool_array.py:7:21: error: kaji.atomic.or_() works on arrays of 32- and 64-bit numbers, not bool
# CHECK-NEXT:     kaji.atomic.or_(flags, 0, True)
# CHECK-NEXT:                     ^
