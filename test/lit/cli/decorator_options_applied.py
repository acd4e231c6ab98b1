# The options a kernel's decorator states apply as their command-line flags would:
# fastmath, max_registers, launch_bounds, lineinfo, opt and boundscheck.
# RUN: %kaji-compile %s --emit llvm 2> %t.err | %FileCheck %s --check-prefix=LLVM
# RUN: %FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit llvm | %FileCheck %s --check-prefix=BOUNDS
import kaji


@kaji.jit("void(float32[:], float32[:])", fastmath=True, max_registers=32,
          launch_bounds=(256, 2), lineinfo=True, opt=True, boundscheck=True)
def scale(out, x):
    i = kaji.grid(1)
    out[i] = x[i] * 2.0 + 1.0

# QUIET-NOT: warning
# LLVM: fmul reassoc nsz arcp contract afn float
# PTX: .visible .entry scale(
# PTX-DAG: .maxnreg 32
# PTX-DAG: .maxntid 256, 1, 1
# PTX-DAG: .minnctapersm 2
# PTX-DAG: .loc {{[0-9]+}} 15
# boundscheck=True checks the index:
# BOUNDS: index.in_range
