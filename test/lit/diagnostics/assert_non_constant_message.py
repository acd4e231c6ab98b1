# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s
import kaji


@kaji.jit("void(int64[:])")
def k(a):
    assert a[0] > 0, a[1]

# CHECK: assert_non_constant_message.py:7:22: error: the message of an exception raised in a kernel must be a constant string, not 'a[1]'
