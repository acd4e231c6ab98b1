# Shifts by the width or more: 0 for <<, saturation for >>, as kaji defines them.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(int32[:], uint16[:])")
def shift(a, u):
    a[0] = a[1] << a[2]
    a[3] = a[4] >> a[5]
    u[0] = u[1] >> u[2]

# CHECK-DAG: kaji::shl(
# CHECK-DAG: kaji::shr(
