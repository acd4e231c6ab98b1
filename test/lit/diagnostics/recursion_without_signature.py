# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def k(a):
    a[0] = fact(a[0])

# The only return calls 'fact': no base case gives its type (an if statement would).
# CHECK: {{.*}}recursion_without_signature.py:7:33: error: recursion without a signature: every return of 'fact' depends on what its recursive call returns; give it a signature (@jit("int64(int64)", device=True)) or a return that does not call it
# CHECK-NEXT: {{^}}    return 1 if n <= 1 else n * fact(n - 1){{$}}
# CHECK-NEXT: {{^}}                                ^{{$}}
