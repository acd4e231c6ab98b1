# REQUIRES: ptxas
# RUN: %kaji-compile %s --emit cubin -o %t.cubin
# RUN: od -A n -t x1 -N 4 %t.cubin | %FileCheck %s --check-prefix=ELF
# RUN: %not %kaji-compile %s --emit cubin 2>&1 | %FileCheck %s --check-prefix=NO-OUTPUT
# RUN: %not %kaji-compile %s --emit cubin --target cpu -o %t.o 2>&1 | %FileCheck %s --check-prefix=CPU
# RUN: %not %kaji-compile %s --emit cubin --arch sm_30 -o %t.old 2>&1 | %FileCheck %s --check-prefix=PTXAS
# RUN: env PATH=/nonexistent CUDA_HOME=/nonexistent %kaji-compile %s --emit ptx | %FileCheck %s --check-prefix=PTX
import kaji


@kaji.jit("void(float32[:])")
def double(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] *= 2.0

# ELF: 7f 45 4c 46
# NO-OUTPUT: kaji-compile: error: --emit cubin writes a binary file: give it with -o FILE
# CPU: kaji-compile: error: --target cpu has no PTX, cubin or LTO-IR
# PTXAS: kaji-compile: error: {{.*}}ptxas failed (exit status {{[0-9]+}}):
# PTXAS-NEXT: ptxas fatal
# PTX: .visible .entry double(
