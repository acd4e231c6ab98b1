# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:], record<8, align 4, x: f32 at 0, y: i32 at 4>[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import numpy as np


def k(out, a):
    out[0] = np.var(a)

# CHECK: {{.*}}reduction_of_records.py:6:14: error: cannot reduce 'record<8, align 4, x: f32 at 0, y: i32 at 4>[:]' in 'np.var(a)': records have no arithmetic; reduce a field
# CHECK-NEXT: {{^}}    out[0] = np.var(a){{$}}
