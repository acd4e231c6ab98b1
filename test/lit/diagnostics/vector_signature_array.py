# Arrays of vectors exist only inside kernels (local and shared arrays): no signature has one,
# and the caret points at the array's brackets.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


@cuda.jit("float32(float32x2[:])", device=True)
def first(vs):
    return vs[0].x


def k(a):
    a[0] = first(a)

# CHECK: {{.*}}vector_signature_array.py:7:29: error: no kernel or device function takes an array of float32x2: arrays of vectors exist only inside kernels (cuda.local.array, cuda.shared.array)
# CHECK-NEXT: {{^}}@cuda.jit("float32(float32x2[:])", device=True){{$}}
# CHECK-NEXT: {{^}}                            ^{{$}}
