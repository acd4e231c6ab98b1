# RUN: %kaji-compile %s | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc | %FileCheck %s
# RUN: %kaji-compile %s | %ptxas -
# Python's min(0.0, x) is 0.0 for x = -0.0; PTX's min.f64 orders -0.0 below 0.0. LLVM's
# NVPTX instruction selection and NVVM both made the select a min.f64: both backends now
# select (between the bits on LLVM's, with one selp in NVRTC's).
import kaji


@kaji.jit("void(float64[::1], float64[::1])")
def smaller(out, x):
    out[0] = min(0.0, x[0])

# CHECK-LABEL: .entry smaller(
# CHECK-NOT: min.f64
# CHECK: setp.lt.f64
# CHECK-NOT: min.f64
# CHECK: selp
# CHECK-NOT: min.f64
# CHECK: ret;
