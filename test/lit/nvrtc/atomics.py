# Atomics return the old value through the prelude's overloads: CUDA's atomics where they
# exist, compare-and-swap loops for float max/min and 64-bit inc/dec.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(int32[:], float32[:], uint32[:], int64[:], float64[:])")
def atomics(a, f, u, big, d):
    i = cuda.grid(1)
    cuda.atomic.add(a, 0, i)
    cuda.atomic.sub(f, 0, f[i])
    cuda.atomic.max(f, 1, f[i])
    cuda.atomic.min(big, 0, big[i])
    cuda.atomic.exch(d, 0, d[i])
    cuda.atomic.and_(a, 1, i)
    cuda.atomic.or_(big, 1, big[i])
    cuda.atomic.xor(u, 0, u[i])
    cuda.atomic.inc(u, 1, 9)
    cuda.atomic.dec(u, 2, 9)
    cuda.atomic.cas(a, 2, 0, i)

# CHECK-DAG: kaji::atomic_add(kaji::element(
# CHECK-DAG: kaji::atomic_sub(
# CHECK-DAG: kaji::atomic_max(
# CHECK-DAG: kaji::atomic_min(
# CHECK-DAG: kaji::atomic_exch(
# CHECK-DAG: kaji::atomic_and(
# CHECK-DAG: kaji::atomic_or(
# CHECK-DAG: kaji::atomic_xor(
# CHECK-DAG: kaji::atomic_inc(
# CHECK-DAG: kaji::atomic_dec(
# CHECK-DAG: kaji::atomic_cas(
