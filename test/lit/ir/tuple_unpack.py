# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64, int64)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(a, x, y):
    x, y = y, x
    a[0] = x - y

# Both values are read before either is written: x - y is the old y - x.
# CHECK: sub %y, %x : i64
