# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu --no-boundscheck --kernel saxpy | %FileCheck %s --check-prefix=SAXPY
# RUN: env KAJI_HOST_CPU=x86-64-v3 %kaji-compile %s --target cpu --no-boundscheck --kernel positive | %FileCheck %s --check-prefix=PART
# RUN: %kaji-compile %s --target cpu --no-boundscheck --kernel counted | %FileCheck %s --check-prefix=EFFECT
# RUN: %kaji-compile %s --target cpu --no-boundscheck --kernel saxpy | %FileCheck %s --check-prefix=DIVISION
from kaji import cuda


@cuda.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

# The threads of a block that pass `i < x.size` are an interval of the loop's counter, computed
# before it (in 128 bits); the loop runs over it alone, and its body has no test left: it
# vectorises without masks.
# SAXPY-LABEL: define void @saxpy.host_entry(
# SAXPY: %threads.pass = icmp {{[a-z]+}} i128
# SAXPY: %threads.end = trunc i128
# SAXPY-NOT: masked.load
# SAXPY: load <8 x float>
# SAXPY-NOT: masked.store
# SAXPY: store <8 x float>
# SAXPY-NOT: masked.


@cuda.jit("void(float32[::1], float32[::1])")
def positive(out, x):
    i = cuda.grid(1)
    if i < x.size and x[i] > 0:
        out[i] = x[i]

# A part of the guard that is no interval stays, tested inside the interval of the others.
# PART-LABEL: define void @positive.host_entry(
# PART: %threads.pass = icmp {{[a-z]+}} i128
# PART: fcmp {{.*}}ogt <8 x float>


@cuda.jit("void(int64[::1], float32[::1])")
def counted(count, out):
    i = cuda.grid(1)
    cuda.atomic.add(count, 0, 1)
    if i < out.size:
        out[i] = 1

# A thread that fails the guard still adds to the count before it: no thread is skipped.
# EFFECT-LABEL: define void @counted.host_entry(
# EFFECT-NOT: threads.pass
# EFFECT: atomicrmw add
# EFFECT-NOT: threads.pass
# EFFECT-LABEL: {{^}}}

# The block's coordinates come from divisions of its linear index by the grid's extents; they
# are frozen, so that no loop pass computes them again inside the loops over threads (the code
# generator's strength reduction did, in each iteration of the vectorised loop, once the
# threads' interval depended on them).
# DIVISION-LABEL: define void @saxpy.host_entry(
# DIVISION: %[[REMAINDER:[0-9]+]] = urem i64 %block.linear,
# DIVISION-NEXT: %{{.*}}frozen{{[0-9]*}} = freeze i64 %[[REMAINDER]]
