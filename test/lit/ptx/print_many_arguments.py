# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# CUDA's printf takes at most 32 arguments after the format and ignores the rest: a print of
# 33 values is two vprintf calls, the first with 32 of them (ir/PrintfFormat.h).
import kaji


@kaji.jit("void(int64[::1])")
def print_33(r):
    print(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12],
          r[13], r[14], r[15], r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23], r[24],
          r[25], r[26], r[27], r[28], r[29], r[30], r[31], r[32])

# CHECK-LABEL: .entry print_33(
# CHECK: vprintf,
# CHECK: vprintf,
# CHECK-NOT: vprintf,
# CHECK: ret;
