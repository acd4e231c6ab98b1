# A recursive device function is declared before every body, so it calls itself; inline=
# becomes __forceinline__ or __noinline__.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@kaji.jit(device=True, inline="always")
def twice(v):
    return v + v


@kaji.jit(device=True, inline="never")
def half(v):
    return v // 2


@kaji.jit("void(int64[:])")
def k(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] = half(twice(fib(a[i])))

# CHECK-DAG: static __device__ i64 fib__i64(i64 n);
# CHECK-DAG: static __device__ __forceinline__ i64 twice__i64(i64 v);
# CHECK-DAG: static __device__ __noinline__ i64 half__i64(i64 v);
# CHECK: static __device__ i64 fib__i64(i64 n) {
# CHECK: fib__i64(
