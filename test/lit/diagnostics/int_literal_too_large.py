# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}int_literal_too_large.py:6:16: error: integer literal too large (the largest is 18446744073709551615)
# CHECK-NEXT: {{^}}    return x + 18446744073709551616{{$}}
# CHECK-NEXT: {{^}}               ^{{$}}
def f(x):
    return x + 18446744073709551616
