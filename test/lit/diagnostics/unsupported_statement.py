# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported_statement.py:5:1: error: 'class' is not supported in kaji kernels
# CHECK-NEXT: {{^}}class Point:{{$}}
# CHECK-NEXT: {{^}}^{{$}}
class Point:
    x = 0
