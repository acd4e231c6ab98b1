# RUN: %not %kaji-compile %s --kernel lazy 2>&1 | %FileCheck %s
import kaji


@kaji.jit
def lazy(a):
    a[0] = 0.0

# CHECK: {{.*}}missing_signature.py:6:1: error: kernel 'lazy' has no signature: pass --sig
