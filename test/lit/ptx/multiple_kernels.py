# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float32[:])")
def first(a):
    a[0] = 1.0


@kaji.jit("void(int64[:])")
def second(a):
    a[0] = 2


def helper_without_signature(a):
    return a

# CHECK-DAG: .visible .entry first(
# CHECK-DAG: .visible .entry second(
# CHECK-NOT: helper_without_signature
