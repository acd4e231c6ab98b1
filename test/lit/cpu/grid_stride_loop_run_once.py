# RUN: %kaji-compile %s --target cpu | %FileCheck %s
from kaji import cuda


@cuda.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy_until_negative(out, a, x, y):
    # A loop with a second exit stays inside the loop over the block's threads (it does not run
    # around it, InterchangeThreadLoops.h).
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        if x[i] < 0:
            break
        out[i] = a * x[i] + y[i]

# Launched with a thread per element, every thread's grid-stride loop runs once at most: that is
# decided before the loops over the block's threads (its first step, from the block's least
# index, already reaches the bound), and the threads then run a loop without a loop inside. A
# launch whose grid is smaller than the array runs the copy that iterates (`.iterated`).
# CHECK: define void @saxpy_until_negative.host_entry(
# CHECK-NOT: common.iteration
# CHECK: %runs.once = and i1
# CHECK: br i1 %runs.once, label %{{.*}}, label %{{.*}}.iterated
