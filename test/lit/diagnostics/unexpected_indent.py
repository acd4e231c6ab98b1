# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unexpected_indent.py:7:9: error: unexpected indent
# CHECK-NEXT: {{^}}        return y{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
def f(x):
    y = x
        return y
