# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s
import kaji


def k(a):
    a[1:3] = (1.0, 2.0)

# CHECK: store_tuple_into_slice.py:6:5: error: cannot store 'tuple(float64, float64)' into 'a[1:3]', a float32[:]
