# cuda.nanosleep is PTX's nanosleep.u32 of a constant or a register; sm_70 and newer.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %not %kaji-compile %s --arch sm_60 --emit ptx 2>&1 | %FileCheck %s --check-prefix=OLD
from kaji import cuda


@cuda.jit("void(uint32)")
def sleeps(x):
    cuda.nanosleep(32)
    cuda.nanosleep(x)

# CHECK-DAG: nanosleep.u32 {{32|%r[0-9]+}};
# CHECK-DAG: nanosleep.u32 %r{{[0-9]+}};
# OLD: error: 'nanosleep' needs sm_70 or newer (compiling for sm_60)
