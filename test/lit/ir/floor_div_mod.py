# RUN: %kaji-compile %s --kernel k --sig 'void(int32[:], int32, int32)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, b):
    out[0] = a // b
    out[1] = a % b

# CHECK: floordiv %a, %b : i32
# CHECK: mod %a, %b : i32
