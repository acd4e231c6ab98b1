# A device function whose signature returns a vector must return that vector: a number or
# another vector type is not converted to it.
# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
from kaji import cuda


@cuda.jit("float32x2(float32x2)", device=True)
def lane_only(v):
    return v.x


def k(a):
    v = lane_only(cuda.float32x2(a[0], a[1]))
    a[0] = v.y

# CHECK: {{.*}}vector_signature_return.py:13:9: error: device function 'lane_only' returns float32 but its signature 'float32x2(float32x2)' says float32x2
