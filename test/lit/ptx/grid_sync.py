# A grid group's sync() is a block barrier around one thread per block adding to the module's
# grid-barrier counter (block 0 adds 2^31 - (blocks - 1)) and spinning on a volatile load until
# the counter's top bit flips, between device-scope fences.
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(int64[:])")
def exchange(values):
    g = cuda.cg.this_grid()
    i = g.thread_rank()
    mine = values[(i + 1) % g.size]
    g.sync()
    values[i] = mine

# IR: grid_sync
# CHECK: .global .align 4 .u32 kaji_grid_barrier;
# CHECK: bar.sync 0;
# CHECK: membar.gl;
# CHECK: atom.global.add.u32 %r{{[0-9]+}}, [{{%rd[0-9]+|kaji_grid_barrier}}], %r{{[0-9]+}};
# CHECK: ld.volatile.global.u32 %r{{[0-9]+}}, [kaji_grid_barrier];
# CHECK: membar.gl;
# CHECK: bar.sync 0;
