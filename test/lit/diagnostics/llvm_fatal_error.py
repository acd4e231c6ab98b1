# LLVM's report_fatal_error (here: activemask needs PTX ISA 6.2, which LLVM 19 does not
# use for sm_70) is a compile error at the kernel, never an abort.
# RUN: %not %kaji-compile %s --arch sm_70 2>&1 | %FileCheck %s

import kaji


@kaji.jit("void(uint32[:])")
def mask(out):
    out[0] = kaji.activemask()

# CHECK: llvm_fatal_error.py:9:1: error: LLVM cannot compile this code: Cannot select: intrinsic %llvm.nvvm.activemask
