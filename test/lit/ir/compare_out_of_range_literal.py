# RUN: %kaji-compile %s --kernel k --sig 'void(bool[:], uint8[:], int64[:], uint64[:])' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, b, c):
    out[0] = a[0] > 300
    out[1] = a[0] == -1
    out[2] = a[0] != -1
    out[3] = b[0] < 2**63
    out[4] = -1 < c[0]
    out[5] = c[0] == -1

# A Python int outside the other operand's type compares as the number it is: each of these
# is a constant (in this order: False, False, True, True, True, False), never a compare of
# the literal wrapped into the type.
# CHECK-LABEL: kernel @k
# CHECK-NOT: cmp
# CHECK: store %[[FALSE:[0-9]+]], %out[
# CHECK: store %[[FALSE]], %out[
# CHECK: store %[[TRUE:[0-9]+]], %out[
# CHECK: store %[[TRUE]], %out[
# CHECK: store %[[TRUE]], %out[
# CHECK: store %[[FALSE]], %out[
