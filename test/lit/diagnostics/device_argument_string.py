# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def show(label, v):
    return v + label


def k(a):
    a[0] = show("x", a[0])

# A string is a compile-time argument (the callee is specialised on it), never a number: the
# error is at its use in the callee.
# CHECK: {{.*}}device_argument_string.py:7:12: error: cannot add 'float64' and 'str' in 'v + label'
# CHECK-NEXT: {{^}}    return v + label{{$}}
