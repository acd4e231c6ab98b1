# RUN: %kaji-compile %s --kernel k --sig 'void(uint64[:], int64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(u, s):
    u[0] = 2**64 - 1
    u[1] = 1 << 63
    s[0] = -(2**63)
    s[1] = (1 << 63) >> 62
    s[2] = 2**63 > -1

# Python ints in an expression of Python ints are exact (no int64 wraparound on the way):
# CHECK-DAG: %[[TWO:[0-9]+]] = const 2 : i64
# CHECK-DAG: %[[ONE:[0-9]+]] = const 1 : i64
# CHECK-DAG: const 18446744073709551615 : u64
# CHECK-DAG: const 9223372036854775808 : u64
# CHECK-DAG: const -9223372036854775808 : i64
# CHECK: store %[[TWO]], %s[%[[ONE]]]
# CHECK: store %[[ONE]], %s[%[[TWO]]]
