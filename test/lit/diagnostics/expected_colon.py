# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}expected_colon.py:6:22: error: expected ':'
# CHECK-NEXT: {{^}}    for i in range(x){{$}}
# CHECK-NEXT: {{^}}                     ^{{$}}
def f(x):
    for i in range(x)
        pass
