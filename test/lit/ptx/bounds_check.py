# With --boundscheck (or --debug) every array index is checked on the GPU: an index out of
# range puts its access's number in the module's exception slot (compare-and-swap: the first
# thread's), the winning thread leaves axis, index, extent and signedness in kaji_index_error,
# and the thread exits — not trap, so the context survives and the host raises IndexError at
# the next synchronize. Without either the PTX has no check.
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ptx --boundscheck -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ptx --debug -o %t.debug.ptx
# RUN: %FileCheck %s < %t.debug.ptx
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ptx -o %t.unchecked.ptx
# RUN: %FileCheck %s --check-prefix=UNCHECKED < %t.unchecked.ptx
# RUN: %ptxas %t.unchecked.ptx
import kaji


@kaji.jit
def k(x, n):
    x[n] = x[n - 1]

# CHECK-DAG: .global .align 4 .u32 kaji_exception;
# CHECK-DAG: .global .align 8 .b8 kaji_index_error[32];
# CHECK: atom.global.cas.b32 {{.*}}, 0, 1;
# CHECK: st.global.v2.u64 [kaji_index_error],
# CHECK: exit;
# CHECK: atom.global.cas.b32 {{.*}}, 0, 2;
# CHECK-NOT: trap;

# UNCHECKED-NOT: kaji_exception
# UNCHECKED-NOT: kaji_index_error
# UNCHECKED-NOT: exit;
