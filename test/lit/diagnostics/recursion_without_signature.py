# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def fact(n):
    return fact(n - 1) * n if n > 1 else fact(n + 1)


def k(a):
    a[0] = fact(a[0])

# Every return calls 'fact': no base case gives its type.
# CHECK: {{.*}}recursion_without_signature.py:7:12: error: recursion without a signature: cannot type infer runaway recursion, as every return of 'fact' depends on what its recursive call returns; give it a signature (@jit("int64(int64)", device=True)) or a return that does not call it
# CHECK-NEXT: {{^}}    return fact(n - 1) * n if n > 1 else fact(n + 1){{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
