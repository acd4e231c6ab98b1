# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s
import kaji


def k(a):
    a[0] = a[::0][0]

# CHECK: slice_step_zero.py:6:16: error: slice step cannot be zero in 'a[::0]'
