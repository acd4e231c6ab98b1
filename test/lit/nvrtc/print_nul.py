# A NUL byte in printed text is "%c" of 0: printf's format string would end at it, and
# NVRTC would read a NUL in the source. Other control characters are octal escapes.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(int64)")
def report(n):
    print("a\x00b", n, "\x01\t")

# CHECK: printf("a%cb %lld \001\011\n", 0, n);
