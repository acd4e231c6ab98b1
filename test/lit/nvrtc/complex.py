# The CUDA C++ backend: complex values are the prelude's c64/c128 structs; a complex
# parameter arrives as its two parts.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(complex64[:], complex64)")
def k(out, z):
    out[0] = out[1] / z

# CHECK: f32 z_re, f32 z_im
# CHECK: const c64 z = {z_re, z_im};
# CHECK-DAG: .re;
# CHECK-DAG: .im;
# CHECK: c64{v{{[0-9]+}}, v{{[0-9]+}}}
