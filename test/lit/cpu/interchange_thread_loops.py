# RUN: %kaji-compile %s --target cpu | %FileCheck %s
import numpy as np

from kaji import cuda


@cuda.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy_grid_stride(out, a, x, y):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]

# The grid-stride loop runs around the loop over the block's threads: for k below the last
# thread's trip count every thread runs iteration k (a vectorised loop over the threads, its
# checks decided for the block at once), then the iterations only the first threads have. The
# trip counts grow no larger with the thread index, so the least and the greatest are the last
# and the first thread's, and nothing is kept per thread: no loop over the threads before the
# iterations, none after them.
# CHECK-LABEL: define void @saxpy_grid_stride.host_entry(
# CHECK-NOT: before.thread
# CHECK: common.iteration:
# CHECK: %k = phi i64
# CHECK: load <{{[0-9]+}} x float>
# CHECK: remaining.iteration
# CHECK-NOT: after.thread
# CHECK-LABEL: {{^}}}


@cuda.jit("void(float32[::1], float32[::1])")
def block_sum(out, x):
    partial = cuda.shared.array(128, np.float32)
    tid = cuda.threadIdx.x
    acc = np.float32(0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += abs(x[i])
    partial[tid] = acc
    cuda.syncthreads()
    if tid == 0:
        total = np.float32(0)
        for k in range(128):
            total += partial[k]
        cuda.atomic.add(out, 0, total)

# In the region before the barrier each thread's accumulator lives in an array of the threads'
# values: the loop before the iterations sets it, each iteration adds to every thread's at once
# (the float additions of one thread stay in order), the loop after stores it to shared memory.
# CHECK-LABEL: define void @block_sum.host_entry(
# CHECK: %{{.*}}.threads{{[0-9]*}} = alloca [{{[0-9]+}} x float]
# CHECK: before.thread:
# CHECK: common.iteration:
# CHECK: fadd <{{[0-9]+}} x float>
# CHECK: after.thread:
# CHECK-LABEL: {{^}}}


@cuda.jit("void(float64[::1], float64[::1])")
def weighted_prefixes(out, x):
    # Thread t runs t % 7 iterations: no order between the threads' trip counts, so the loop
    # before the iterations keeps each thread's, their least and their greatest, and the way
    # each went on (past `if t < out.size` or into the loop).
    t = cuda.grid(1)
    if t < out.size:
        acc = 0.0
        for j in range(t % 7):
            acc += x[j] * j
        out[t] = acc

# CHECK-LABEL: define void @weighted_prefixes.host_entry(
# CHECK-DAG: %trip.counts = alloca [1024 x i64]
# CHECK-DAG: %paths = alloca [1024 x i32]
# CHECK: before.thread:
# CHECK: trip.least
# CHECK: common.iteration:
# CHECK: remaining.iteration:
# CHECK: after.thread:
