# RUN: %not %kaji-compile %s --kernel k --sig 'void(int32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    g = cuda.cg.this_grid(0)
    g.sync()

# CHECK: {{.*}}this_grid_arguments.py:6:9: error: cuda.cg.this_grid() takes no arguments
# CHECK-NEXT: {{^}}    g = cuda.cg.this_grid(0){{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
