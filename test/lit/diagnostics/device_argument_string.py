# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def show(label, v):
    return v


def k(a):
    a[0] = show("x", a[0])

# A string is no compile-time argument (only functions, types, modules, classes, None and
# int, bool or enum constants are).
# CHECK: {{.*}}device_argument_string.py:11:12: error: cannot pass 'str' as argument 'label' of device function 'show'
# CHECK-NEXT: {{^}}    a[0] = show("x", a[0]){{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
