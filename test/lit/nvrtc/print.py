# print is printf with Numba's conversions: %lld / %llu, %f, True / False.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float32[:])")
def report(x):
    i = cuda.grid(1)
    print("x[", i, "] =", x[i], x[i] > 0.0, "100%", sep="")

# CHECK: printf("x[%lld] =%f%s100%%\n", v{{[0-9]+}}, f64(v{{[0-9]+}}), v{{[0-9]+}} ? "True" : "False");
