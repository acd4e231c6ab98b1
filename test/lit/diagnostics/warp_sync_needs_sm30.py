# The warp-synchronous builtins (shfl_*_sync, ballot/all/any/eq_sync, syncwarp, activemask)
# need sm_30: the error points at the call instead of LLVM's instruction selection failing.
# RUN: %not %kaji-compile %s --arch sm_21 --emit ptx 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(float32[:])")
def k(a):
    a[0] = kaji.shfl_down_sync(0xFFFFFFFF, a[1], 1)

# CHECK: {{.*}}warp_sync_needs_sm30.py:9:12: error: 'shfl_down_sync' needs sm_30 or newer (compiling for sm_21)
# CHECK-NEXT: {{^}}    a[0] = kaji.shfl_down_sync(0xFFFFFFFF, a[1], 1){{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
