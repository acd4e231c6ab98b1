#include "kaji/runtime/Launch.h"

#include <gtest/gtest.h>

using namespace kaji::runtime;

namespace {

// An sm_90-like device.
DeviceLimits hopperLimits() {
  DeviceLimits limits;
  limits.maxThreadsPerBlock = 1024;
  limits.maxBlockDim = {1024, 1024, 64};
  limits.maxGridDim = {2147483647, 65535, 65535};
  limits.maxSharedBytesPerBlock = 48 * 1024;
  limits.maxSharedBytesPerBlockOptin = 227 * 1024;
  limits.warpSize = 32;
  return limits;
}

std::string rejection(const Extent3 &grid, const Extent3 &block, std::int64_t sharedBytes) {
  try {
    validateLaunch(hopperLimits(), grid, block, sharedBytes);
  } catch (const std::invalid_argument &error) {
    return error.what();
  }
  ADD_FAILURE() << "the launch was accepted";
  return {};
}

TEST(LaunchValidationTest, AcceptedShapeIsConverted) {
  LaunchConfig config = validateLaunch(hopperLimits(), {4096, 2, 1}, {256, 4, 1}, 1024);
  EXPECT_EQ(config.grid, (Dim3{4096, 2, 1}));
  EXPECT_EQ(config.block, (Dim3{256, 4, 1}));
  EXPECT_EQ(config.sharedBytes, 1024u);
}

TEST(LaunchValidationTest, LimitsThemselvesAreAccepted) {
  LaunchConfig config =
      validateLaunch(hopperLimits(), {2147483647, 65535, 65535}, {16, 1, 64}, 227 * 1024);
  EXPECT_EQ(config.grid.x, 2147483647u);
  EXPECT_EQ(config.sharedBytes, 227u * 1024);
}

TEST(LaunchValidationTest, TooManyThreadsPerBlock) {
  EXPECT_EQ(rejection({1, 1, 1}, {2048, 1, 1}, 0),
            "block size 2048 exceeds the device's maximum of 1024 threads per block");
  EXPECT_EQ(rejection({1, 1, 1}, {64, 32, 1}, 0),
            "block size 2048 exceeds the device's maximum of 1024 threads per block");
}

TEST(LaunchValidationTest, ThreadCountDoesNotOverflow) {
  std::string message = rejection({1, 1, 1}, {1LL << 40, 1LL << 40, 1}, 0);
  EXPECT_NE(message.find("exceeds the device's maximum of 1024 threads per block"),
            std::string::npos)
      << message;
}

TEST(LaunchValidationTest, ZeroAndNegativeDimensions) {
  EXPECT_EQ(rejection({0, 1, 1}, {32, 1, 1}, 0),
            "grid dimension x is 0 in grid (0, 1, 1); every dimension must be at least 1");
  EXPECT_EQ(rejection({1, 1, 1}, {32, -4, 1}, 0),
            "block dimension y is -4 in block (32, -4, 1); every dimension must be at least 1");
}

TEST(LaunchValidationTest, DimensionAboveItsAxisLimit) {
  EXPECT_EQ(rejection({1, 1, 1}, {1, 1, 128}, 0),
            "block dimension z is 128, above the device's maximum of 64");
  EXPECT_EQ(rejection({1, 70000, 1}, {32, 1, 1}, 0),
            "grid dimension y is 70000, above the device's maximum of 65535");
  EXPECT_EQ(rejection({1LL << 40, 1, 1}, {32, 1, 1}, 0),
            "grid dimension x is 1099511627776, above the device's maximum of 2147483647");
}

TEST(LaunchValidationTest, SharedMemory) {
  EXPECT_EQ(rejection({1, 1, 1}, {32, 1, 1}, -1),
            "dynamic shared memory size is -1 bytes; it must not be negative");
  EXPECT_EQ(rejection({1, 1, 1}, {32, 1, 1}, 300000),
            "300000 bytes of dynamic shared memory exceed the device's maximum of 232448 bytes "
            "per block");
}

} // namespace
