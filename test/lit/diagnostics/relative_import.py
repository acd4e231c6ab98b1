# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --strict-whitespace
# CHECK: {{.*}}relative_import.py:5:6: error: relative imports are not supported in kaji kernels
# CHECK-NEXT: {{^}}from .kernels import saxpy{{$}}
# CHECK-NEXT: {{^}}     ^{{$}}
from .kernels import saxpy
