# RUN: %kaji-compile %s --target cpu -O0 | %FileCheck %s
# RUN: %kaji-compile %s --target cpu --kernel block_sum | %FileCheck %s --check-prefix=OPT
# RUN: %kaji-compile %s --target cpu --kernel warp_sum | %FileCheck %s --check-prefix=FIBERS
# RUN: %kaji-compile %s --target cpu -O0 --kernel early_return | %FileCheck %s --check-prefix=RETURN
# RUN: %kaji-compile %s --target cpu -O0 --kernel uneven | %FileCheck %s --check-prefix=UNEVEN
from kaji import cuda


@cuda.jit("void(float32[:], float32[:])")
def block_sum(out, x):
    tile = cuda.shared.array(128, dtype=cuda.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    step = 64
    while step > 0:
        if t < step:
            tile[t] += tile[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = tile[0]


@cuda.jit("void(float32[:], float32[:])")
def warp_sum(out, x):
    i = cuda.grid(1)
    v = x[i]
    cuda.syncthreads()
    out[i] = cuda.shfl_down_sync(0xFFFFFFFF, v, 1)

@cuda.jit("void(float32[:], float32[:], int64)")
def early_return(out, x, rounds):
    tile = cuda.shared.array(128, dtype=cuda.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= x.size:
        return
    acc = 0.0
    for r in range(rounds):
        tile[t] = x[i] + r
        cuda.syncthreads()
        acc += tile[(t + 1) % 128]
        cuda.syncthreads()
    out[i] = acc


@cuda.jit("void(int64[:], int64)")
def uneven(out, rounds):
    t = cuda.threadIdx.x
    total = 0
    for r in range(rounds):
        if t < 10:
            cuda.syncthreads()
        cuda.syncthreads()
        total += r
    out[t] = total

# A kernel whose threads meet only at syncthreads() is cut at its barriers: the kernel becomes a
# function that resumes a thread at a region (0: its start; k: after its k-th barrier) and
# returns where it stopped (k at the k-th barrier, 3 when it returned), which it also stores in
# the thread storage. The loop's `step` lives across the barriers and is the same in every
# thread: each thread stores it to one slot, and a round reads it as an argument (`.before`),
# which the entry loads from that slot before the round.
# CHECK: define internal i32 @block_sum({{.*}}, ptr noalias %thread_storage, ptr noalias %shared, i32 %region, i64 %[[STEP:.*]].before)
# CHECK: regions:
# CHECK: %[[SLOT:.*]].uniform = getelementptr inbounds i8, ptr %thread_storage, i64 0
# CHECK: %thread_arrays = getelementptr inbounds i8, ptr %thread_storage, i64 16
# CHECK: %state = getelementptr inbounds i32, ptr %thread_arrays, i64 %thread.linear
# CHECK: switch i32 %region, label %{{.*}} [
# CHECK-NEXT: i32 1, label %after.barrier
# CHECK-NEXT: i32 2, label %after.barrier{{[0-9]+}}
# CHECK-NEXT: ]
# CHECK: store i64 %{{.*}}, ptr %[[SLOT]].uniform
# CHECK: store i32 1, ptr %state
# CHECK-NEXT: ret i32 1
# CHECK: store i32 3, ptr %state
# CHECK-NEXT: ret i32 3
# The entry runs rounds over the block's threads: a region's loop when every thread stopped at
# the same one, else each thread resumed through a call.
# CHECK: define void @block_sum.host_entry(
# CHECK: %thread_storage = load ptr
# CHECK: round:
# CHECK: switch i32 %region
# CHECK: %[[STEP]].before = load i64, ptr %
# CHECK: call i32 @block_sum({{.*}}, ptr %thread_storage, ptr %{{[^,]+}}, i32 0, i64 %[[STEP]].before)
# CHECK: call i32 @block_sum({{.*}}, ptr %thread_storage, ptr %{{[^,]+}}, i32 %state, i64 %{{.*}}) #[[NOINLINE:[0-9]+]]
# CHECK-NOT: call void %barrier
# CHECK: attributes #[[NOINLINE]] = { noinline }
# Optimised, the uniform rounds hold the regions' code inlined; only the divergent round calls.
# OPT: define void @block_sum.host_entry(
# OPT-NOT: call i32 @block_sum({{.*}}, i32 0)
# OPT: call {{.*}}i32 @block_sum({{.*}}, i32 %state, i64 %{{.*}})
# OPT-NOT: call void %barrier
# A warp collective needs every lane at once: such a kernel runs one call per thread (as
# fibers), which waits at each barrier.
# FIBERS: define void @warp_sum.host_entry(
# FIBERS: call void %barrier{{.*}}(ptr %executor
# Threads that return early leave the rounds: the loop counter is still alike in every thread
# that runs, and is passed in.
# RETURN: define internal i32 @early_return({{.*}}, ptr noalias %thread_storage, ptr noalias %shared, i32 %region, i64 %{{.*}}.before)
# Threads that pass different numbers of barriers are out of step: nothing is passed in.
# UNEVEN: define internal i32 @uneven({{.*}}, ptr noalias %thread_storage, ptr noalias %shared, i32 %region)
