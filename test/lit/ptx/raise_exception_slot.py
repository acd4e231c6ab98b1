# A raise with --debug leaves its number in the module's exception slot (the first thread's,
# by compare-and-swap) and exits the thread — exit, not trap, so the context survives and the
# host reads the slot after the launch. Without --debug the thread only exits.
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ptx --debug -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ptx -o %t.silent.ptx
# RUN: %FileCheck %s --check-prefix=SILENT < %t.silent.ptx
# RUN: %ptxas %t.silent.ptx
import kaji


@kaji.jit
def k(x, n):
    i = kaji.grid(1)
    if i >= n:
        raise IndexError("i over n")
    if x[i] < 0:
        raise ValueError
    x[i] = 1.0

# CHECK: .global .align 4 .u32 kaji_exception;
# CHECK-DAG: atom.global.cas.b32 {{.*}}, 0, 1;
# CHECK-DAG: atom.global.cas.b32 {{.*}}, 0, 2;
# CHECK: exit;
# CHECK-NOT: trap;

# SILENT-NOT: kaji_exception
# SILENT: exit;
