# With --debug, `raise E("msg")` and a failing `assert` end in a raise terminator naming the
# exception class and its message; without, on cuda, an assert is dropped and a raise only
# ends the thread (Numba without debug=True).
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir --debug | %FileCheck %s
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir | %FileCheck %s --check-prefix=SILENT
# RUN: %kaji-compile %s --kernel k --sig 'void(float32[:], int64)' --emit ir --target cpu | %FileCheck %s
import kaji


@kaji.jit
def k(x, n):
    i = kaji.grid(1)
    assert n > 0, "n must be positive"
    if i >= n:
        raise ValueError("index over n")
    x[i] = 1.0

# CHECK-LABEL: kernel @k(
# CHECK: cond_br
# CHECK: raise "AssertionError: n must be positive"
# CHECK: raise "ValueError: index over n"

# SILENT-LABEL: kernel @k(
# SILENT-NOT: AssertionError
# SILENT: raise{{$}}
# SILENT-NOT: raise
