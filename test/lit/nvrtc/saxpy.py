# A kernel is an extern "C" __global__ function with the LLVM path's flattened parameters;
# each Python line's statements share one C++ line under a #line directive.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float32[::1], float32, float32[::1], float32[::1])")
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

# CHECK: #include "kaji_prelude.cuh"
# CHECK: extern "C" __global__ void saxpy(f32 *out_data, i64 out_shape0, i64 out_stride0, f32 a, f32 *x_data, i64 x_shape0, i64 x_stride0, f32 *y_data, i64 y_shape0, i64 y_stride0) {
# CHECK-NEXT: const kaji::array<f32, 1> out = {out_data, {out_shape0}, {4}};
# CHECK: #line 12 "{{.*}}saxpy.py"
# CHECK-NEXT: v{{[0-9]+}} = i32(blockDim.x);
# CHECK: #line 14 "{{.*}}saxpy.py"
# CHECK: = a * v{{[0-9]+}};
