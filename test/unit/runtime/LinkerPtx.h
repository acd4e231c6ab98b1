// Two PTX files that link (the linker tests): a kernel calling a device function by Numba's
// declare_device ABI, and the file defining it.
#pragma once

namespace kaji::runtime::testing {

// `call_twice(out)` stores twice(3.0f) to out[0]; `twice` is only declared.
constexpr const char *kCallerPtx = R"(.version 7.0
.target sm_75
.address_size 64

.extern .func (.param .b32 status) twice(.param .b64 result, .param .b32 x);

.visible .entry call_twice(.param .u64 out)
{
  .local .align 4 .b8 slot[4];
  .reg .b64 %rd<4>;
  .reg .f32 %f<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u64 %rd3, slot;
  cvta.local.u64 %rd3, %rd3;
  {
    .param .b64 p0;
    .param .b32 p1;
    .param .b32 rv;
    st.param.b64 [p0], %rd3;
    st.param.f32 [p1], 0f40400000;
    call.uni (rv), twice, (p0, p1);
    ld.param.b32 %r1, [rv];
  }
  ld.local.f32 %f1, [slot];
  st.global.f32 [%rd2], %f1;
  ret;
}
)";

// extern "C" __device__ int twice(float *result, float x) { *result = x + x; return 0; }
constexpr const char *kTwicePtx = R"(.version 7.0
.target sm_75
.address_size 64

.visible .func (.param .b32 status) twice(.param .b64 result, .param .b32 x)
{
  .reg .b64 %rd<2>;
  .reg .f32 %f<3>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [result];
  ld.param.f32 %f1, [x];
  add.f32 %f2, %f1, %f1;
  st.f32 [%rd1], %f2;
  mov.u32 %r1, 0;
  st.param.b32 [status], %r1;
  ret;
}
)";

} // namespace kaji::runtime::testing
