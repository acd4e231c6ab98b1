# RUN: %not %kaji-compile %s --kernel k --sig 'void(uint8[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a):
    a[0] = a[0] + 300

# NumPy 2 raises OverflowError for np.uint8(200) + 300; kaji refuses to compile it.
# CHECK: {{.*}}int_literal_out_of_bounds.py:6:12: error: Python integer 300 out of bounds for uint8 in 'a[0] + 300': the literal takes the type of the other operand, uint8, as in NumPy 2; convert one of them to a wider type
# CHECK-NEXT: {{^}}    a[0] = a[0] + 300{{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
