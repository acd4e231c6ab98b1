# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unexpected_eof_continuation.py:6:16: error: unexpected end of file after line continuation character
# CHECK-NEXT: {{^}}    return x + \{{$}}
# CHECK-NEXT: {{^}}               ^{{$}}
def f(x):
    return x + \
