# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}indentation_error.py:7:5: error: unindent does not match any outer indentation level
# CHECK-NEXT: {{^}}    return y{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
def f(x):
        y = x
    return y
