# RUN: %kaji-compile %s --target cpu | %FileCheck %s
from kaji import cuda


@cuda.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy_grid_stride(out, a, x, y):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]

# Launched with a thread per element, every thread's grid-stride loop runs once at most: that is
# decided before the loops over the block's threads (its first step, from the block's least
# index, already reaches the bound), and the threads then run a loop without a loop inside,
# which vectorises (masked: `if i < x.size` is what remains of the loop). A launch whose grid is
# smaller than the array runs the copy that iterates (`.iterated`).
# CHECK: define void @saxpy_grid_stride.host_entry(
# CHECK: %runs.once = and i1
# CHECK: br i1 %runs.once, label %{{.*}}, label %{{.*}}.iterated
# CHECK: masked.load.v{{[0-9]+}}f32
