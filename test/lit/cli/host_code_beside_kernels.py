# RUN: %kaji-compile %s --kernel scale --sig 'void(float32[:])' | %FileCheck %s
# RUN: %not %kaji-compile %s --kernel main --sig 'void()' 2>&1 | %FileCheck %s --check-prefix=MAIN
# RUN: %not %kaji-compile %s --emit ast 2>&1 | %FileCheck %s --check-prefix=AST
import kaji


@kaji.jit
def scale(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] *= 2.0


class Config:
    size = 1024


def main():
    print(f"{Config.size} elements")

# Host code the kernel language cannot express does not stop the kernel compiling;
# its error appears when it is asked for.
# CHECK: .visible .entry scale(
# MAIN: host_code_beside_kernels.py:19:11: error: f-strings are not supported in kernels
# AST: host_code_beside_kernels.py:14:1: error: 'class' is not supported in kaji kernels
