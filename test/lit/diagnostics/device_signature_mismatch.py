# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(["void(float64[:], float64)", "void(int8[:], int8)"], device=True)
def fill(a, v):
    a[0] = v


def k(a):
    fill(a, 1.0)

# An array argument is never converted: no signature takes a float32 array.
# CHECK: {{.*}}device_signature_mismatch.py:11:5: error: device function 'fill' has no signature for arguments (float32[:], float64); it has:
# CHECK-NEXT: {{^}}  void(float64[:], float64){{$}}
# CHECK-NEXT: {{^}}  void(int8[:], int8){{$}}
