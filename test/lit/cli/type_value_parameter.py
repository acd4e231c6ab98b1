# A kernel parameter that is a number type passed as a value, as Numba prints its type
# (class(int16)): it has no IR parameter, and the kernel sees the type, here a local array's
# dtype. A device function's signature cannot take one.
# RUN: %kaji-compile %s --kernel k --sig 'void(float64[::1], class(int16))' --emit ir | %FileCheck %s
# RUN: not %kaji-compile %s --kernel k --sig 'void(float64[::1], class(int16[:]))' 2>&1 | %FileCheck %s --check-prefix=ARRAY
import kaji
from kaji import cuda


def k(out, dty):
    tmp = cuda.local.array(2, dty)
    tmp[0] = 2.7
    out[0] = tmp[0]

# CHECK-LABEL: kernel @k(%out: array<f64, 1, C>)
# CHECK: local_array{{.*}}array<i16, 1, C, local>
# ARRAY: error: 'class(...)' takes a number type, not 'int16[:]'
