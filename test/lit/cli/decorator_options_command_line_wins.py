# A flag on the command line wins over the decorator's option.
# RUN: %kaji-compile %s --emit llvm | %FileCheck %s --check-prefix=FAST
# RUN: %kaji-compile %s --emit llvm | %FileCheck %s --check-prefix=OPTIMIZED
# RUN: %kaji-compile %s --emit llvm -O0 | %FileCheck %s --check-prefix=UNOPTIMIZED
# RUN: %kaji-compile %s --emit ptx --max-registers 64 | %FileCheck %s --check-prefix=REGISTERS
import kaji


@kaji.jit("void(float32[:], float32[:])", fastmath=True, opt=3, max_registers=32)
def scale(out, x):
    out[0] = x[0] * 2.0 + 1.0

# FAST: fmul reassoc nsz arcp contract afn float
# UNOPTIMIZED: mul i64 0, %x.stride0
# REGISTERS: .maxnreg 64
# OPTIMIZED-NOT: mul i64 0,
