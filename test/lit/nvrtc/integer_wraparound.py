# Signed overflow is undefined in C++: kaji's wrapping +, -, * go through the prelude's
# unsigned helpers; unsigned 32- and 64-bit arithmetic wraps by itself.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(int32[:], uint64[:], int8[:])")
def wrap(a, u, b):
    a[0] = a[1] + a[2] * a[3] - a[4]
    u[0] = u[1] * u[2] + u[3]
    b[0] = -b[1]

# CHECK-DAG: kaji::mul(v{{[0-9]+}}, v{{[0-9]+}})
# CHECK-DAG: kaji::add(
# CHECK-DAG: kaji::sub(
# CHECK-DAG: = v{{[0-9]+}} * v{{[0-9]+}};
# CHECK-DAG: kaji::neg(v{{[0-9]+}})
