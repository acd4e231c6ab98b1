# A kernel's arguments come from the host, which has no vector values (as in Numba): a kernel
# signature with a vector parameter is an error naming it, not a verifier failure.
# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


@cuda.jit("void(float32[:], float32x4)")
def k(a, v):
    a[0] = v.x

# CHECK: {{.*}}vector_kernel_parameter.py:7:12: error: a kernel cannot take a float32x4: its arguments come from the host, which has no vector values (as in Numba); pass the lanes, or an array, and build the vector in the kernel
# CHECK-NEXT: {{^}}@cuda.jit("void(float32[:], float32x4)"){{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
