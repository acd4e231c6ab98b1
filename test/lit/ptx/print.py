# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit("void(float32[:])")
def report(x):
    i = cuda.grid(1)
    print("x[", i, "] =", x[i], x[i] > 0.0, sep="")

# IR: print "x[{}] ={}{}\n"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}})
# CHECK: .extern .func  (.param .b32 func_retval0) vprintf
# "x[%lld] =%f%s\n", "True" and "False" as bytes:
# CHECK-DAG: [15] = {120, 91, 37, 108, 108, 100, 93, 32, 61, 37, 102, 37, 115, 10};
# CHECK-DAG: [5] = {84, 114, 117, 101};
# CHECK-DAG: [6] = {70, 97, 108, 115, 101};
# CHECK: call.uni (retval0),
# CHECK-NEXT: vprintf,
