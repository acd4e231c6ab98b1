# A NUL byte in printed text is "%c" of 0: vprintf's format string would end at it.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit("void(int64)")
def report(n):
    print("a\x00b", n)

# IR: print "a\x00b {}\n"(%n)
# "a%cb %lld\n", with no NUL before its end:
# CHECK: [11] = {97, 37, 99, 98, 32, 37, 108, 108, 100, 10};
# CHECK: call.uni (retval0),
# CHECK-NEXT: vprintf,
