# The kernels of one output share their options: where their decorators differ, the
# option is not applied and each stating one is named; compiled alone, it applies.
# RUN: %kaji-compile %s --emit llvm 2> %t.err | %FileCheck %s --check-prefix=SHARED
# RUN: %FileCheck %s --check-prefix=WARN < %t.err
# RUN: %kaji-compile %s --emit llvm --kernel fast 2>&1 | %FileCheck %s --check-prefix=ALONE
import kaji


@kaji.jit("void(float32[:])", fastmath=True)
def fast(x):
    x[0] = x[0] * 3.0


@kaji.jit("void(float32[:])")
def exact(x):
    x[0] = x[0] * 3.0

# WARN: decorator_options_differ_between_kernels.py:9:40: warning: 'fastmath' of kernel 'fast' is not applied: the kernels of one output share their options, and theirs differ; compile 'fast' alone (--kernel fast)
# SHARED-NOT: fmul reassoc
# ALONE-NOT: warning
# ALONE: fmul reassoc nsz arcp contract afn float
