# RUN: %not %kaji-compile %s --kernel k --sig 'void(flaot32[:])' 2>&1 | %FileCheck %s
import kaji


@kaji.jit
def k(a):
    a[0] = 0.0

# The caret points into the --sig text.
# CHECK: <--sig 1>:1:6: error: {{.*}}flaot32
# CHECK-NEXT: void(flaot32[:])
# CHECK-NEXT: {{^     \^}}
