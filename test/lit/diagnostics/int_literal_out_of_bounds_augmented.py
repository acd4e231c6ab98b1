# RUN: %not %kaji-compile %s --kernel k --sig 'void(int8[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a):
    x = a[0]
    x -= -129
    a[0] = x

# CHECK: {{.*}}int_literal_out_of_bounds_augmented.py:7:5: error: Python integer -129 out of bounds for int8 in 'x -= -129': the literal takes the type of the other operand, int8, as in NumPy 2; convert one of them to a wider type
# CHECK-NEXT: {{^}}    x -= -129{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
