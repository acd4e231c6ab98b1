# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("float32(float32)", device=True)
def forgets_to_return(v):
    v + 1


def k(a):
    a[0] = forgets_to_return(a[0])

# CHECK: {{.*}}device_signature_return.py:11:12: error: device function 'forgets_to_return' returns void but its signature 'float32(float32)' says float32
# CHECK-NEXT: {{^}}    a[0] = forgets_to_return(a[0]){{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
