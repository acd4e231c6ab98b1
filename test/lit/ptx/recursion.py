# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@kaji.jit("void(int64[:])")
def k(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] = fib(a[i])

# A recursive device function is a real function: the kernel calls it and it calls itself.
# CHECK: .visible .entry k(
# CHECK: call.uni (retval0),
# CHECK-NEXT: fib__i64,
# CHECK: .func {{.*}}fib__i64(
# CHECK: call.uni (retval0),
# CHECK-NEXT: fib__i64,
