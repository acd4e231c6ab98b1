# Python's //, % and / by zero: total helpers, never C++'s truncating, trapping operators.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(int64[:], float64[:], float16[:])")
def divide(a, f, h):
    a[0] = a[1] // a[2]
    a[3] = a[4] % a[5]
    f[0] = f[1] // f[2]
    f[3] = f[4] % f[5]
    h[0] = h[1] // h[2]

# CHECK-DAG: kaji::floordiv(
# CHECK-DAG: kaji::mod(
# CHECK-DAG: kaji::float_floordiv(
# CHECK-DAG: kaji::float_mod(
