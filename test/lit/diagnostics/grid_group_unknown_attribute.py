# RUN: %not %kaji-compile %s --kernel k --sig 'void(int32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


def k(a):
    g = cuda.cg.this_grid()
    g.barrier()

# CHECK: {{.*}}grid_group_unknown_attribute.py:7:5: error: cuda.cg.GridGroup has no attribute 'barrier' in kernels (it has sync(), size and thread_rank())
# CHECK-NEXT: {{^}}    g.barrier(){{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
