#include "GpuTest.h"
#include "TestKernels.h"

#include "kaji/runtime/Device.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Module.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

using namespace kaji::runtime;

namespace {

using GpuModuleTest = GpuTest;

TEST_F(GpuModuleTest, LoadsPtxAndFindsTheEntry) {
  Module module = Module::loadPtx(test::kAddOnePtx);
  Function addOne = module.function("add_one");
  EXPECT_NE(addOne.handle(), nullptr);
  EXPECT_EQ(addOne.name(), "add_one");
  EXPECT_GT(addOne.maxThreadsPerBlock(), 0);
  EXPECT_LE(addOne.maxThreadsPerBlock(), 1024);
  EXPECT_GE(addOne.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS), 1);
}

TEST_F(GpuModuleTest, InvalidPtxCarriesTheJitErrorLog) {
  try {
    Module::loadPtx(test::kUndeclaredRegisterPtx);
    FAIL() << "no exception";
  } catch (const CudaError &error) {
    std::string message = error.what();
    EXPECT_EQ(error.call(), "cuModuleLoadDataEx");
    EXPECT_EQ(error.errorName(), "CUDA_ERROR_INVALID_PTX");
    EXPECT_EQ(message.rfind("cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (", 0), 0u)
        << message;
    EXPECT_NE(error.detail().find("PTX JIT error log:"), std::string::npos) << message;
    EXPECT_NE(error.detail().find("%r1"), std::string::npos) << message;
  }
}

TEST_F(GpuModuleTest, MissingEntryIsNamed) {
  Module module = Module::loadPtx(test::kAddOnePtx);
  try {
    module.function("add_two");
    FAIL() << "no exception";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.errorName(), "CUDA_ERROR_NOT_FOUND");
    EXPECT_NE(std::string(error.what()).find("no kernel named 'add_two'"), std::string::npos);
  }
}

TEST_F(GpuModuleTest, ModuleScopeVariableIsReachable) {
  Module module = Module::loadPtx(test::kAddOnePtx);
  Module::Global counter = module.global("counter");
  EXPECT_EQ(counter.bytes, sizeof(std::uint32_t));
  std::uint32_t value = 0;
  copyDeviceToHost(&value, counter.address, sizeof(value));
  EXPECT_EQ(value, 42u);
  EXPECT_THROW(module.global("no_such_variable"), CudaError);
}

TEST_F(GpuModuleTest, LoadsACubinAssembledByPtxas) {
  const char *ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::filesystem::exists(ptxas))
    GTEST_SKIP() << ptxas << " is not installed";
  ComputeCapability cc = Device::get(0).computeCapability();
  auto dir = std::filesystem::temp_directory_path();
  auto ptxPath = dir / "kaji_runtime_test_add_one.ptx";
  auto cubinPath = dir / "kaji_runtime_test_add_one.cubin";
  std::ofstream(ptxPath) << test::kAddOnePtx;
  std::string command = std::string(ptxas) + " --gpu-name sm_" + std::to_string(cc.major) +
                        std::to_string(cc.minor) + " " + ptxPath.string() + " -o " +
                        cubinPath.string();
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream file(cubinPath, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), {});
  Module module = Module::loadCubin(std::as_bytes(std::span(bytes)));
  EXPECT_NE(module.function("add_one").handle(), nullptr);
}

TEST_F(GpuModuleTest, MovedModuleKeepsItsFunctions) {
  Module original = Module::loadPtx(test::kAddOnePtx);
  Module moved = std::move(original);
  EXPECT_NE(moved.function("add_one").handle(), nullptr);
}

} // namespace
