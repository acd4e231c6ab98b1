# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}complex_literal.py:6:16: error: complex literals are not supported
# CHECK-NEXT: {{^}}    return x * 2j{{$}}
# CHECK-NEXT: {{^}}               ^{{$}}
def f(x):
    return x * 2j
