# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:, :], float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a, out):
    b = a.reshape(4)
    out[0] = b[0]

# CHECK: {{.*}}reshape_non_contiguous.py:6:9: error: reshape() needs a C-contiguous array, and 'a.reshape' is float32[:, :] (Numba reshapes contiguous arrays only)
# CHECK-NEXT: {{^}}    b = a.reshape(4){{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
