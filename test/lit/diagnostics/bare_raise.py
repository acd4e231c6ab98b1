# RUN: %not %kaji-compile %s --emit ir --debug 2>&1 | %FileCheck %s
import kaji


@kaji.jit("void(int64[:])")
def k(a):
    if a[0] < 0:
        raise

# CHECK: bare_raise.py:8:9: error: a bare 'raise' re-raises the exception being handled; kernels handle none
