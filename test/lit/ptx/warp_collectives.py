# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float64[:], int32[:], uint32[:])")
def warp_ops(f, a, u):
    i = cuda.grid(1)
    full = 0xFFFFFFFF
    f[i] = cuda.shfl_down_sync(full, f[i], 1) + cuda.shfl_sync(full, f[i], 0)
    a[i] = cuda.shfl_up_sync(full, a[i], 2) + cuda.shfl_xor_sync(full, a[i], 16)
    u[i] = cuda.ballot_sync(full, a[i] > 0) | cuda.match_any_sync(full, a[i])
    a[i] += cuda.all_sync(full, a[i] > 0) + cuda.any_sync(full, a[i] > 0)
    a[i] += cuda.eq_sync(full, a[i] > 0)
    u[i] += cuda.activemask() + cuda.lanemask_lt()
    mask, same = cuda.match_all_sync(full, f[i])
    u[i] += mask if same else 0
    cuda.syncwarp()
    cuda.syncwarp(0xFFFF)
    a[i] += cuda.syncthreads_count(a[i] > 0) + cuda.syncthreads_and(a[i] > 0)
    a[i] += cuda.syncthreads_or(a[i] > 0)

# CHECK: .visible .entry warp_ops(
# CHECK-DAG: shfl.sync.down.b32
# CHECK-DAG: shfl.sync.idx.b32
# CHECK-DAG: shfl.sync.up.b32
# CHECK-DAG: shfl.sync.bfly.b32
# CHECK-DAG: vote.sync.ballot.b32
# CHECK-DAG: match.any.sync.b32
# CHECK-DAG: match.all.sync.b64
# CHECK-DAG: vote.sync.all.pred
# CHECK-DAG: vote.sync.any.pred
# CHECK-DAG: vote.sync.uni.pred
# CHECK-DAG: activemask.b32
# CHECK-DAG: bar.warp.sync
# CHECK-DAG: bar.red.popc.u32
# CHECK-DAG: bar.red.and.pred
# CHECK-DAG: bar.red.or.pred
