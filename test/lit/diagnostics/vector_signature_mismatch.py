# A vector argument fits only a signature of exactly its type: vectors never convert (Numba has
# no conversion between vector types), so the call names the signatures there are.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


@cuda.jit("float32(float32x2)", device=True)
def first(v):
    return v.x


def k(a):
    a[0] = first(cuda.int32x2(1, 2))

# CHECK: {{.*}}vector_signature_mismatch.py:13:12: error: device function 'first' has no signature for arguments (int32x2); it has:
# CHECK-NEXT: {{^}}  float32(float32x2){{$}}
