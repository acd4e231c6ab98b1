# activemask needs PTX ISA 6.2, newer than LLVM's default for sm_70: kaji asks for 6.2, as
# nvcc does, so the warp builtins compile for every architecture that has them.
# RUN: %kaji-compile %s --arch sm_70 --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --arch sm_35 --emit ptx | %FileCheck %s --check-prefix=OLD
# The CPU target has every builtin, whatever --arch says.
# RUN: %kaji-compile %s --arch sm_21 --target cpu --emit llvm > /dev/null
import kaji


@kaji.jit("void(uint32[:])")
def k(a):
    a[0] = kaji.activemask()
    a[1] = kaji.ballot_sync(0xFFFFFFFF, a[2] > 0)

# CHECK: .version 6.2
# CHECK: .target sm_70
# CHECK: activemask.b32
# CHECK: vote.sync.ballot.b32
# OLD: .version 6.2
# OLD: .target sm_35
# OLD: activemask.b32
