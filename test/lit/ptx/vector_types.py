# A vector is a struct of its lanes in LLVM: a device function kept as a function (inline=
# "never") takes and returns one in .param space, aligned as CUDA's float4 (16 bytes), and the
# kernel reads its lanes back. (LLVM may drop the lanes no caller reads from the result.)
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit(device=True, inline="never")
def rotated(v):
    return cuda.float32x4(v.y, v.z, v.w, v.x)


@cuda.jit("void(float32[:])")
def k(a):
    v = rotated(cuda.float4(a[0], a[1], a[2], a[3]))
    a[0] = v.x + v.w

# IR-LABEL: kernel @k(
# IR: %[[V:[0-9]+]] = make_vector %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : vec<f32, 4>
# IR: %[[R:[0-9]+]] = call @rotated__v4f32(%[[V]]) : vec<f32, 4>
# IR: extract_lane %[[R]], 3 : f32
# IR-LABEL: device noinline @rotated__v4f32(%v: vec<f32, 4>) -> vec<f32, 4> {
# IR: %{{[0-9]+}} = extract_lane %v, 1 : f32

# CHECK: .visible .entry k(
# CHECK: .param .align 16 .b8 param0[16];
# CHECK: st.param.v4.f32 [param0+0], {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}};
# CHECK: call.uni (retval0),
# CHECK: .func (.param .align 16 .b8 func_retval0[{{[0-9]+}}]) rotated__v4f32(
# CHECK-NEXT: .param .align 16 .b8 rotated__v4f32_param_0[16]
# CHECK: ld.param.v4.f32
