# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported_lambda.py:6:9: error: 'lambda' is not supported in kaji kernels
# CHECK-NEXT: {{^}}    g = lambda y: y{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
def f(x):
    g = lambda y: y
