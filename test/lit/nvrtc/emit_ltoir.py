# --emit ltoir is the kernel's LTO-IR as @jit(lto=True) makes it: NVRTC -dlto on the nvrtc
# backend's CUDA C++, a binary (not PTX) for nvJitLink. lto= in a decorator is not applied.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit ltoir -o %t.ltoir 2>%t.warnings
# RUN: %FileCheck %s --check-prefix=WARNING < %t.warnings
# RUN: %not grep -q "\.entry" %t.ltoir
# RUN: test -s %t.ltoir
# RUN: %not %kaji-compile %s --emit ltoir -o %t.llvm 2>&1 | %FileCheck %s --check-prefix=LLVM
# RUN: %not %kaji-compile %s --backend nvrtc --emit ltoir 2>&1 | %FileCheck %s --check-prefix=NO-OUTPUT
# RUN: %not %kaji-compile %s --target cpu --emit ltoir -o %t.o 2>&1 | %FileCheck %s --check-prefix=CPU
import kaji


@kaji.jit("void(float32[:])", lto=True)
def double(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] *= 2.0

# WARNING: emit_ltoir.py:14:35: warning: 'lto' is not applied: link-time optimisation happens when the kernel is loaded
# LLVM: kaji-compile: error: --emit ltoir is made by the nvrtc backend (LLVM's NVPTX backend makes no LTO-IR): add --backend nvrtc
# NO-OUTPUT: kaji-compile: error: --emit ltoir writes a binary file: give it with -o FILE
# CPU: kaji-compile: error: --target cpu has no PTX, cubin or LTO-IR
