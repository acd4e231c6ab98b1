# RUN: %not %kaji-compile %s --emit ir --debug 2>&1 | %FileCheck %s --strict-whitespace
import kaji

LIMIT = 4


@kaji.jit("void(int64[:])")
def k(a):
    if a[0] > LIMIT:
        raise LIMIT

# CHECK: raise_non_exception.py:10:15: error: 'LIMIT' is not an exception class; a kernel raises a built-in exception class or one of the module's
# CHECK-NEXT:         raise LIMIT
# CHECK-NEXT:               ^
