# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unmatched_paren.py:6:14: error: unmatched ')'
# CHECK-NEXT: {{^}}    y = x + 1){{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
def f(x):
    y = x + 1)
