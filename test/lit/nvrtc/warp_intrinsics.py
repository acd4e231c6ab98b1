# Warp collectives are CUDA's *_sync intrinsics (shuffles clamp at the warp, as on the LLVM
# path); votes give 0 or 1.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float64[:], int32[:], uint32[:])")
def warp_ops(f, a, u):
    i = cuda.grid(1)
    full = 0xFFFFFFFF
    f[i] = cuda.shfl_down_sync(full, f[i], 1) + cuda.shfl_sync(full, f[i], 0)
    a[i] = cuda.shfl_up_sync(full, a[i], 2) + cuda.shfl_xor_sync(full, a[i], 16)
    u[i] = cuda.ballot_sync(full, a[i] > 0) | cuda.match_any_sync(full, a[i])
    mask, same = cuda.match_all_sync(full, a[i])
    u[i] += mask if same else 0
    a[i] += cuda.all_sync(full, a[i] > 0) + cuda.any_sync(full, a[i] > 0)
    a[i] += cuda.eq_sync(full, a[i] > 0)
    u[i] += cuda.activemask()
    cuda.syncwarp()
    a[i] += cuda.syncthreads_count(a[i] > 0) + cuda.syncthreads_and(a[i] > 0)
    a[i] += cuda.syncthreads_or(a[i] > 0)

# CHECK-DAG: __shfl_down_sync(
# CHECK-DAG: __shfl_sync(
# CHECK-DAG: __shfl_up_sync(
# CHECK-DAG: __shfl_xor_sync(
# CHECK-DAG: __ballot_sync(
# CHECK-DAG: __match_any_sync(
# CHECK-DAG: kaji::match_all_sync(
# CHECK-DAG: i32(__all_sync(v{{[0-9]+}}, v{{[0-9]+}}) != 0)
# CHECK-DAG: i32(__any_sync(
# CHECK-DAG: i32(__uni_sync(
# CHECK-DAG: __activemask()
# CHECK-DAG: __syncwarp(
# CHECK-DAG: __syncthreads_count(
# CHECK-DAG: __syncthreads_and(
# CHECK-DAG: __syncthreads_or(
