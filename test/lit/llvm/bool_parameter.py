# RUN: %kaji-compile %s --emit llvm | %FileCheck %s
import kaji


@kaji.jit("void(int32[:], boolean)")
def k(a, flag):
    if flag:
        a[0] = 1

# bool travels as one byte.
# CHECK: define {{.*}}void @k(ptr addrspace(1) {{[^,]*}}, i64 range(i64 0, 4611686018427387905) {{[^,]*}}, i64 {{[^,]*}}, i8
