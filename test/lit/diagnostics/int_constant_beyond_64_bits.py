# RUN: %not %kaji-compile %s --kernel k --sig 'void(uint64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def k(a):
    a[0] = 2**64 + a[0]

# Python ints are exact inside an expression of Python ints (2**64 - 1 is fine), but the
# value a kernel uses must fit int64 or uint64.
# CHECK: {{.*}}int_constant_beyond_64_bits.py:6:12: error: Python integer 18446744073709551616 in '2 ** 64 + a[0]' does not fit in 64 bits (kernels hold Python ints as int64, or uint64 above 2**63 - 1)
# CHECK-NEXT: {{^}}    a[0] = 2**64 + a[0]{{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
