// The driver's linker (Linker.h): input types by file suffix everywhere; linking a kernel's
// PTX with the PTX defining the device function it calls, by Numba's declare_device ABI, and
// the log naming a missing symbol, where there is a GPU.
#include "GpuTest.h"

#include "kaji/runtime/Error.h"
#include "kaji/runtime/Launch.h"
#include "kaji/runtime/Linker.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Module.h"

#include <gtest/gtest.h>

#include <span>
#include <stdexcept>

using namespace kaji::runtime;

namespace {

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

TEST(LinkerTest, InputTypesFollowTheFileSuffix) {
  EXPECT_EQ(linkInputType("ops.ptx"), CU_JIT_INPUT_PTX);
  EXPECT_EQ(linkInputType("/a/b/ops.cubin"), CU_JIT_INPUT_CUBIN);
  EXPECT_EQ(linkInputType("ops.fatbin"), CU_JIT_INPUT_FATBINARY);
  EXPECT_EQ(linkInputType("ops.o"), CU_JIT_INPUT_OBJECT);
  EXPECT_EQ(linkInputType("libops.a"), CU_JIT_INPUT_LIBRARY);
}

TEST(LinkerTest, AnUnknownSuffixNamesTheFile) {
  try {
    linkInputType("ops.cu");
    FAIL() << "no exception";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("'ops.cu'"), std::string::npos) << error.what();
  }
}

TEST(LinkerTest, NothingOrAnEmptyInputIsRefusedBeforeTheDriver) {
  EXPECT_THROW(linkCubin({}), std::invalid_argument);
  try {
    linkCubin({{CU_JIT_INPUT_PTX, "empty.ptx", ""}});
    FAIL() << "no exception";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("'empty.ptx'"), std::string::npos) << error.what();
  }
}

using GpuLinkerTest = GpuTest;

TEST_F(GpuLinkerTest, LinksACallToADeviceFunctionOfAnotherFile) {
  std::string cubin = linkCubin(
      {{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx}, {CU_JIT_INPUT_PTX, "ops.ptx", kTwicePtx}});
  Module module = Module::loadCubin(std::as_bytes(std::span(cubin.data(), cubin.size())));
  DeviceBuffer out(sizeof(float));
  CUdeviceptr pointer = out.pointer();
  void *params[] = {&pointer};
  launch(module.function("call_twice"), Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, nullptr, params);
  float result = 0;
  out.copyToHost(&result, sizeof result);
  EXPECT_EQ(result, 6.0f);
}

TEST_F(GpuLinkerTest, AMissingSymbolIsNamedInTheLinkerLog) {
  try {
    linkCubin({{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx}});
    FAIL() << "no exception";
  } catch (const CudaError &error) {
    EXPECT_NE(error.detail().find("twice"), std::string::npos) << error.what();
  }
}

} // namespace
