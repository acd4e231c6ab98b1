# RUN: %kaji-compile %s --emit ptx --launch-bounds 128 -o %t.threads.ptx
# RUN: %FileCheck %s --check-prefix=THREADS < %t.threads.ptx
# RUN: %ptxas %t.threads.ptx
# RUN: %kaji-compile %s --emit ptx --launch-bounds 256,4 -o %t.blocks.ptx
# RUN: %FileCheck %s --check-prefix=BLOCKS < %t.blocks.ptx
# RUN: %ptxas %t.blocks.ptx
# RUN: %kaji-compile %s --emit ptx --launch-bounds 256,2,8 -o %t.cluster.ptx
# RUN: %FileCheck %s --check-prefix=CLUSTER < %t.cluster.ptx
# RUN: %ptxas %t.cluster.ptx
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s --check-prefix=PLAIN
import kaji


@kaji.jit("void(float32[:], float32[:])")
def scale(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * 2.0

# THREADS: .visible .entry scale(
# THREADS: .maxntid 128, 1, 1
# THREADS-NOT: .minnctapersm
# BLOCKS: .maxntid 256, 1, 1
# BLOCKS-NEXT: .minnctapersm 4
# CLUSTER: .maxntid 256, 1, 1
# CLUSTER: .minnctapersm 2
# CLUSTER: .maxclusterrank 8
# PLAIN-NOT: .maxntid
# PLAIN-NOT: .minnctapersm
