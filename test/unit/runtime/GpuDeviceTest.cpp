#include "GpuTest.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/Device.h"

using namespace kaji::runtime;

namespace {

using GpuDeviceTest = GpuTest;

TEST_F(GpuDeviceTest, DescribesEveryDevice) {
  ASSERT_GE(Device::count(), 1);
  for (int ordinal = 0; ordinal < Device::count(); ++ordinal) {
    const Device &device = Device::get(ordinal);
    EXPECT_EQ(device.ordinal(), ordinal);
    EXPECT_FALSE(device.name().empty());
    EXPECT_GE(device.computeCapability(), (ComputeCapability{5, 0}));
    EXPECT_GT(device.multiprocessorCount(), 0);
    EXPECT_GT(device.totalMemory(), 0u);
    EXPECT_GT(device.freeMemory(), 0u);
    EXPECT_LE(device.freeMemory(), device.totalMemory());
    EXPECT_EQ(device.warpSize(), 32);
    const DeviceLimits &limits = device.limits();
    EXPECT_EQ(limits.maxThreadsPerBlock, 1024);
    EXPECT_EQ(limits.maxBlockDim[0], 1024);
    EXPECT_EQ(limits.maxGridDim[1], 65535);
    EXPECT_GE(limits.maxSharedBytesPerBlockOptin, limits.maxSharedBytesPerBlock);
  }
}

TEST_F(GpuDeviceTest, BadOrdinalNamesTheDeviceCount) {
  try {
    Device::get(Device::count());
    FAIL() << "no exception";
  } catch (const std::out_of_range &error) {
    EXPECT_NE(std::string(error.what()).find("there is no CUDA device"), std::string::npos);
  }
  EXPECT_THROW(selectDevice(-1), std::out_of_range);
}

TEST_F(GpuDeviceTest, PrimaryContextIsRetainedOnce) {
  const Context &first = Context::primary(0);
  const Context &second = Context::primary(0);
  EXPECT_EQ(&first, &second);
  EXPECT_NE(first.handle(), nullptr);
  selectDevice(0);
  EXPECT_EQ(selectedDevice(), 0);
  synchronize();
}

} // namespace
