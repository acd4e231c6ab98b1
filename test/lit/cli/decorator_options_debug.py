# debug=True in the decorator is --debug: raise reports its exception, lines are marked
# (as the decorator's debug=True does) and indices are checked; opt=False is -O0.
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit llvm | %FileCheck %s --check-prefix=LLVM
import kaji


@kaji.jit("void(int32[:])", debug=True, opt=False)
def check(x):
    if x[0] < 0:
        raise ValueError("negative")

# CHECK: .loc {{[0-9]+}} 12
# The exception slot that reports it:
# CHECK: kaji_exception
# Unoptimized, the bounds check of x[0] still compares the constant 0:
# LLVM: icmp ult i64 0, %x.shape0
