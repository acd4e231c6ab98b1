# RUN: %kaji-compile %s --arch sm_80 --emit ptx | %FileCheck %s
# RUN: %not %kaji-compile %s --arch sm_1234 --emit ptx 2>&1 | %FileCheck %s --check-prefix=BAD
import kaji


@kaji.jit("void(int32[:])")
def k(a):
    a[0] = 1

# CHECK: .target sm_80
# BAD: error: {{.*}}sm_1234
