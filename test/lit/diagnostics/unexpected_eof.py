# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unexpected_eof.py:6:10: error: expected an indented block after 'if' statement on line 6
# CHECK-NEXT: {{^}}    if x:{{$}}
# CHECK-NEXT: {{^}}         ^{{$}}
def f(x):
    if x:
