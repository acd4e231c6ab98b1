#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Module.h"
#include "kaji/runtime/Stream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

using namespace kaji::runtime;

namespace {

constexpr const char *kStubDriver = "/usr/local/cuda/lib64/stubs/libcuda.so";

std::string messageOfLoading(const std::string &path) {
  try {
    CudaDriver driver(path);
  } catch (const DriverUnavailable &unavailable) {
    return unavailable.what();
  }
  ADD_FAILURE() << "loading '" << path << "' did not throw DriverUnavailable";
  return {};
}

TEST(DriverLoadingTest, MissingLibraryNamesThePathAndWhatStillWorks) {
  std::string message = messageOfLoading("/nonexistent/kaji/libcuda.so");
  EXPECT_NE(message.find("no NVIDIA driver found"), std::string::npos) << message;
  EXPECT_NE(message.find("/nonexistent/kaji/libcuda.so"), std::string::npos) << message;
  EXPECT_NE(message.find("kaji can still compile; launch on target cpu"), std::string::npos)
      << message;
}

TEST(DriverLoadingTest, StubLibraryFailsInCuInitWithTheStubError) {
  if (!std::filesystem::exists(kStubDriver))
    GTEST_SKIP() << kStubDriver << " is not installed";
  std::string message = messageOfLoading(kStubDriver);
  EXPECT_NE(message.find("cuInit failed: CUDA_ERROR_STUB_LIBRARY"), std::string::npos) << message;
  EXPECT_NE(message.find(kStubDriver), std::string::npos) << message;
}

TEST(DriverLoadingTest, LibraryWithoutDriverEntryPointsIsRefused) {
  // Any loadable library that is not libcuda: the C library.
  std::string message = messageOfLoading("libc.so.6");
  EXPECT_NE(message.find("has no entry point cuInit"), std::string::npos) << message;
}

TEST(DriverLoadingTest, EnvironmentOverrideSelectsTheProcessDriver) {
  // In a fresh process, since the process-wide driver is loaded once.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("KAJI_CUDA_DRIVER", "/nonexistent/override/libcuda.so", 1);
        std::cerr << CudaDriver::unavailableReason();
        bool throwsTheSameReason = false;
        try {
          CudaDriver::get();
        } catch (const DriverUnavailable &unavailable) {
          throwsTheSameReason = unavailable.what() == CudaDriver::unavailableReason();
        }
        std::exit(!CudaDriver::available() && throwsTheSameReason ? 0 : 1);
      },
      testing::ExitedWithCode(0), "/nonexistent/override/libcuda.so");
}

TEST(DriverLoadingTest, DefaultLibraryPathHonoursTheOverride) {
  const char *saved = std::getenv("KAJI_CUDA_DRIVER");
  std::string savedValue = saved ? saved : "";
  setenv("KAJI_CUDA_DRIVER", "/opt/driver/libcuda.so", 1);
  EXPECT_EQ(CudaDriver::defaultLibraryPath(), "/opt/driver/libcuda.so");
  unsetenv("KAJI_CUDA_DRIVER");
  EXPECT_EQ(CudaDriver::defaultLibraryPath(), "libcuda.so.1");
  if (saved)
    setenv("KAJI_CUDA_DRIVER", savedValue.c_str(), 1);
}

TEST(DriverLoadingTest, InputErrorsAreReportedBeforeTheDriverIsNeeded) {
  EXPECT_THROW(Module::loadPtx(""), std::invalid_argument);
  std::vector<std::byte> notAnImage(64, std::byte{0x2a});
  EXPECT_THROW(Module::loadCubin(notAnImage), std::invalid_argument);
  EXPECT_THROW(Module::loadCubin({}), std::invalid_argument);
}

TEST(DriverLoadingTest, DefaultStreamNeedsNoDriver) {
  Stream stream;
  EXPECT_TRUE(stream.isDefault());
  EXPECT_EQ(stream.handle(), nullptr);
}

} // namespace
