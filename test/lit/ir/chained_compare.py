# RUN: %kaji-compile %s --kernel k --sig 'void(int32[:], int32, int32, int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, b, c):
    out[0] = a < b <= c

# b is evaluated once; the second comparison runs only if the first holds.
# CHECK: %[[FIRST:[0-9]+]] = cmp lt %a, %b : i32
# CHECK: cond_br %[[FIRST]], ^[[SECOND:bb[0-9]+]], ^[[MERGE:bb[0-9]+]](%{{[0-9]+}} : bool)
# CHECK: ^[[MERGE]](%[[RESULT:[0-9]+]]: bool):
# CHECK: cast %[[RESULT]] : bool to i32
# CHECK: ^[[SECOND]]:
# CHECK: cmp le %b, %c : i32
