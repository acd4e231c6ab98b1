#include "GpuTest.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/PeerCopy.h"
#include "kaji/runtime/Stream.h"

#include <numeric>
#include <stdexcept>
#include <vector>

using namespace kaji::runtime;

namespace {

// Needs two devices; leaves device 0 selected.
class GpuPeerCopyTest : public GpuTest {
protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped())
      return;
    if (Device::count() < 2)
      GTEST_SKIP() << "needs two CUDA devices";
  }
  void TearDown() override {
    if (!IsSkipped())
      selectDevice(0);
  }
};

TEST_F(GpuPeerCopyTest, CopiesBetweenDevicesBothWays) {
  std::vector<int> input(1 << 16);
  std::iota(input.begin(), input.end(), 7);
  std::size_t bytes = input.size() * sizeof(int);
  selectDevice(0);
  DeviceBuffer first(bytes);
  first.copyFromHost(input.data(), bytes);
  selectDevice(1);
  DeviceBuffer second(bytes);
  copyPeer(second.pointer(), 1, first.pointer(), 0, bytes, nullptr);
  selectDevice(0);
  DeviceBuffer back(bytes);
  Stream stream = Stream::create();
  copyPeer(back.pointer(), 0, second.pointer(), 1, bytes, &stream);
  stream.synchronize();
  std::vector<int> output(input.size());
  back.copyToHost(output.data(), bytes);
  EXPECT_EQ(output, input);
}

TEST_F(GpuPeerCopyTest, PeerAccessIsSymmetricAndLeavesTheSelectedDevice) {
  selectDevice(1);
  bool peers = enablePeerAccess(0, 1);
  EXPECT_EQ(enablePeerAccess(1, 0), peers);
  EXPECT_TRUE(enablePeerAccess(1, 1));
  EXPECT_EQ(selectedDevice(), 1);
}

TEST_F(GpuPeerCopyTest, AStreamOfAnotherDeviceIsRefused) {
  selectDevice(0);
  DeviceBuffer first(64);
  Stream streamOfZero = Stream::create();
  selectDevice(1);
  DeviceBuffer second(64);
  EXPECT_THROW(copyPeer(second.pointer(), 1, first.pointer(), 0, 64, &streamOfZero),
               std::invalid_argument);
}

} // namespace
