# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True, inline="sometimes")
def f(v):
    return v


def k(a):
    a[0] = f(a[0])

# CHECK: {{.*}}inline_bad_value.py:5:31: error: inline must be 'always', 'never', True or False
# CHECK-NEXT: {{^}}@kaji.jit(device=True, inline="sometimes"){{$}}
# CHECK-NEXT: {{^}}                              ^{{$}}
