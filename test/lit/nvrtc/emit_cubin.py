# NVRTC builds the cubin itself (-arch=sm_XX); the LLVM backend's cubin comes from ptxas. A
# kernel named like a C++ keyword gets the entry kaji_<name>.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cubin --arch sm_80 -o %t.cubin
# RUN: od -A n -t x1 -N 4 %t.cubin | %FileCheck %s --check-prefix=ELF
# RUN: %kaji-compile %s --backend nvrtc --emit ptx --arch sm_80 | %FileCheck %s --check-prefix=PTX
import kaji


@kaji.jit("void(float32[:])")
def double(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] *= 2.0

# ELF: 7f 45 4c 46
# PTX: .target sm_80
# PTX: .visible .entry kaji_double(
