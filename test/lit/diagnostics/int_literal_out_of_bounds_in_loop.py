# RUN: %not %kaji-compile %s --kernel k --sig 'void(uint8[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
# The variable's type is the fixed point of its assignments (uint8 here), and the literal is
# checked against it in every pass of the loop's body.
import kaji


def k(a):
    t = a[0]
    for _ in range(3):
        t = t * 300
    a[0] = t

# CHECK: {{.*}}int_literal_out_of_bounds_in_loop.py:10:13: error: Python integer 300 out of bounds for uint8 in 't * 300': the literal takes the type of the other operand, uint8, as in NumPy 2; convert one of them to a wider type
# CHECK-NEXT: {{^}}        t = t * 300{{$}}
# CHECK-NEXT: {{^}}            ^{{$}}
