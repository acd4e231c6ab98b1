# A device function the IR keeps is a static __device__ function, declared before the
# kernels; arrays pass as kaji::array values.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit(device=True)
def scaled(x, i, factor):
    return x[i] * factor


@kaji.jit("void(float32[:], float32[:])")
def apply(out, x):
    i = kaji.grid(1)
    out[i] = scaled(x, i, 2.0)

# CHECK: static __device__ f32 {{[a-z_0-9]+}}(kaji::array<f32, 1> x, i64 i, f64 factor);
# CHECK: extern "C" __global__ void apply(
