# RUN: %not %kaji-compile %s --kernel k --sig 'void(float64[:], float64[:, :])' --emit ir 2>&1 | %FileCheck %s
import kaji


def k(out, a):
    for i in range(3):
        row = a[i]
    out[0] = row[0]

# CHECK: array_bound_in_loop_used_after.py:8:14: error: array variable 'row' is bound in the loop at line 6 and cannot be used after it: a kernel binds an array variable to one array, not one per iteration
