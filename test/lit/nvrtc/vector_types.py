# A vector is the prelude's kaji::vec<T, n> (CUDA's float4 is kaji::vec<f32, 4>): built with
# braces, read as .x .y .z .w, passed to and returned from device functions by value.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
from kaji import cuda


@cuda.jit(device=True, inline="never")
def swapped(v):
    return cuda.int64x2(v.y, v.x)


@cuda.jit(device=True, inline="never")
def last(v):
    return v.w


@cuda.jit("void(int64[:])")
def k(a):
    v = swapped(cuda.longlong2(a[0], a[1]))
    a[0] = v.x - int(last(cuda.double4(v.x, v.y, 0.5, a[2])))

# CHECK: static __device__ __noinline__ kaji::vec<i64, 2> swapped__v2i64(kaji::vec<i64, 2> v);
# CHECK: static __device__ __noinline__ f64 last__v4f64(kaji::vec<f64, 4> v);
# CHECK: extern "C" __global__ void k(
# CHECK: = kaji::vec<i64, 2>{v{{[0-9]+}}, v{{[0-9]+}}};
# CHECK: = kaji::vec<f64, 4>{v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}};
# CHECK: v{{[0-9]+}} = v.y; v{{[0-9]+}} = v.x; v{{[0-9]+}} = kaji::vec<i64, 2>{v{{[0-9]+}}, v{{[0-9]+}}};
# CHECK: = v.w;
