# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unclosed_paren.py:6:9: error: '(' was never closed
# CHECK-NEXT: {{^}}    y = (x +{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
def f(x):
    y = (x +
         1
    return y
