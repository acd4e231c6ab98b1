// The driver's linker (Linker.h): input types by file suffix everywhere; linking a kernel's
// PTX with the PTX defining the device function it calls, by Numba's declare_device ABI, and
// the log naming a missing symbol, where there is a GPU.
#include "GpuTest.h"
#include "LinkerPtx.h"

#include "kaji/runtime/Error.h"
#include "kaji/runtime/Launch.h"
#include "kaji/runtime/Linker.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Module.h"

#include <gtest/gtest.h>

#include <span>
#include <stdexcept>

using namespace kaji::runtime;
using namespace kaji::runtime::testing;

namespace {

TEST(LinkerTest, InputTypesFollowTheFileSuffix) {
  EXPECT_EQ(linkInputType("ops.ptx"), CU_JIT_INPUT_PTX);
  EXPECT_EQ(linkInputType("/a/b/ops.cubin"), CU_JIT_INPUT_CUBIN);
  EXPECT_EQ(linkInputType("ops.fatbin"), CU_JIT_INPUT_FATBINARY);
  EXPECT_EQ(linkInputType("ops.o"), CU_JIT_INPUT_OBJECT);
  EXPECT_EQ(linkInputType("libops.a"), CU_JIT_INPUT_LIBRARY);
  EXPECT_EQ(linkInputType("ops.ltoir"), CU_JIT_INPUT_NVVM);
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

TEST(LinkerTest, TheDriversLinkerRefusesLtoIrNamingIt) {
  try {
    linkCubin({{CU_JIT_INPUT_NVVM, "ops.ltoir", "not really LTO-IR"}});
    FAIL() << "no exception";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("'ops.ltoir'"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("nvJitLink"), std::string::npos) << error.what();
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
