# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax_error.py:6:12: error: invalid syntax
# CHECK-NEXT: {{^}}    y = x +{{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
def f(x):
    y = x +
    return y
