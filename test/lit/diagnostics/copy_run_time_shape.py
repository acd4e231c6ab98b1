# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:], float32[:])' --emit ir 2>&1 | %FileCheck %s
import kaji


def k(a, out):
    b = a[1:].copy()
    out[0] = b[0]

# CHECK: copy_run_time_shape.py:6:9: error: copy() in a kernel makes a local array, so it needs a shape known at compile time (a local, shared or constant array, or a view of one with constant bounds); 'a[1:].copy' is float32[:]: copy into a cuda.local.array of a constant shape instead
