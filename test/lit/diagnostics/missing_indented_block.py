# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}missing_indented_block.py:7:5: error: expected an indented block after 'if' statement on line 6
# CHECK-NEXT: {{^}}    return x{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
def f(x):
    if x:
    return x
