# RUN: %not %kaji-compile %s --emit ir --debug 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(int64[:])")
def k(a):
    if a[0] < 0:
        raise ValueError(a[0])

# CHECK: raise_non_constant_message.py:8:26: error: the message of an exception raised in a kernel must be a constant string, not 'a[0]'
# CHECK-NEXT:         raise ValueError(a[0])
# CHECK-NEXT:                          ^
