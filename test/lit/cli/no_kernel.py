# RUN: %not %kaji-compile %s 2>&1 | %FileCheck %s
import kaji


@kaji.jit
def lazy(a):
    a[0] = 0.0

# CHECK: kaji-compile: error: no kernel to compile in '{{.*}}no_kernel.py': pass --kernel NAME --sig SIGNATURE
