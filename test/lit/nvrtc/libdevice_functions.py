# cuda.libdevice.NAME calls libdevice's __nv_NAME, declared at file scope (NVRTC links
# libdevice); a function that writes values through pointers is called in a lambda that
# returns the value the op selects. round() is rint (half to even).
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit("void(float64[:], int32[:], float32[:], int64[:])")
def libdevice_functions(a, e, f, r):
    i = cuda.grid(1)
    m, x = cuda.libdevice.frexp(a[i])
    a[i] = m
    e[i] = x
    f[i] = cuda.libdevice.sinf(f[i])
    r[i] = round(f[i])

# CHECK-DAG: extern "C" __device__ f64 __nv_frexp(f64, i32 *);
# CHECK-DAG: extern "C" __device__ f32 __nv_sinf(f32);
# CHECK: [&] { i32 output0; return __nv_frexp({{v[0-9]+}}, &output0); }()
# CHECK: [&] { i32 output0; __nv_frexp({{v[0-9]+}}, &output0); return output0; }()
# CHECK: __nv_sinf(
# CHECK: rintf(
