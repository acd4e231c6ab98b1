# RUN: %not %kaji-compile %s 2>&1 | %FileCheck %s
import kaji


@kaji.jit("void(float32[:])")
def broken(a):
    a[0] = f"{a}"

# A decorated function that cannot be read is reported, not silently skipped.
# CHECK: unparsed_kernel_reported.py:7:12: error: f-strings are not supported in kernels
# CHECK-NEXT: a[0] = f"{a}"
