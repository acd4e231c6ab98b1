# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s
import kaji


def k(a):
    a[1:3] += 1.0

# CHECK: slice_operator_assignment.py:6:7: error: an operator-assignment to a slice is not supported in kernels; assign each element, in 'a[1:3]'
