# match.sync exists from Volta (sm_70) on.
# RUN: %not %kaji-compile %s --arch sm_61 --emit ptx 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(uint32[:])")
def k(a):
    a[0] = kaji.match_any_sync(0xFFFFFFFF, a[1])

# CHECK: {{.*}}match_any_sync_needs_sm70.py:8:12: error: 'match_any_sync' needs sm_70 or newer (compiling for sm_61)
# CHECK-NEXT: {{^}}    a[0] = kaji.match_any_sync(0xFFFFFFFF, a[1]){{$}}
# CHECK-NEXT: {{^}}           ^{{$}}
