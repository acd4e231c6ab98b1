# RUN: %not %kaji-compile %s --launch-bounds 128,x 2>&1 | %FileCheck %s
# RUN: %not %kaji-compile %s --launch-bounds 0 2>&1 | %FileCheck %s
# RUN: %not %kaji-compile %s --launch-bounds 1,2,3,4 2>&1 | %FileCheck %s
# RUN: %not %kaji-compile %s --max-registers -3 2>&1 | %FileCheck %s --check-prefix=REGS
import kaji


@kaji.jit("void(float32[:])")
def k(x):
    pass

# CHECK: --launch-bounds takes THREADS[,BLOCKS[,CLUSTER]], positive ints
# REGS: --max-registers takes a positive int, not '-3'
