# A grid group's sync() calls the prelude's grid_sync on the module's counter.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(int64[:])")
def exchange(values):
    g = cuda.cg.this_grid()
    i = g.thread_rank()
    mine = values[(i + 1) % g.size]
    g.sync()
    values[i] = mine

# CHECK: __device__ u32 kaji_grid_barrier;
# CHECK: kaji::grid_sync(&kaji_grid_barrier);
# PTX: .global .align 4 .u32 kaji_grid_barrier;
# PTX: atom.global.add.u32
