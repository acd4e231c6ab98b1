#include "GpuTest.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/ManagedMemory.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/PageLockedMemory.h"
#include "kaji/runtime/Stream.h"

#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

using namespace kaji::runtime;

namespace {

using GpuMemoryKindsTest = GpuTest;

TEST_F(GpuMemoryKindsTest, PinnedBufferIsPageLockedAndCopiesAsynchronously) {
  constexpr std::size_t kCount = 1 << 16;
  PinnedHostBuffer pinned(kCount * sizeof(int), {});
  EXPECT_TRUE(isPageLocked(pinned.data(), pinned.size()));
  EXPECT_FALSE(isPageLocked(pinned.data(), pinned.size() + 1));
  auto *values = static_cast<int *>(pinned.data());
  std::iota(values, values + kCount, 7);
  auto stream = std::make_shared<const Stream>(Stream::create());
  DeviceBuffer device(pinned.size(), stream);
  copyHostToDeviceAsync(device.pointer(), pinned.data(), pinned.size(), *stream);
  std::memset(pinned.data(), 0, pinned.size());
  stream->synchronize();
  copyDeviceToHostAsync(pinned.data(), device.pointer(), pinned.size(), *stream);
  stream->synchronize();
  EXPECT_EQ(values[kCount - 1], int(kCount - 1 + 7));
}

TEST_F(GpuMemoryKindsTest, RegistrationPageLocksForItsLifetime) {
  std::vector<double> host(4096, 1.5);
  std::size_t bytes = host.size() * sizeof(double);
  {
    HostRegistration registration(host.data(), bytes, {.mapped = true});
    EXPECT_TRUE(isPageLocked(host.data(), bytes));
    EXPECT_NE(registration.devicePointer(), 0u);
  }
  EXPECT_FALSE(isPageLocked(host.data(), bytes));
}

TEST_F(GpuMemoryKindsTest, MappedPinnedMemoryHasADeviceAddress) {
  PinnedHostBuffer mapped(256, {.mapped = true});
  std::memset(mapped.data(), 0x5a, 256);
  DeviceBuffer device(256);
  copyDeviceToDevice(device.pointer(), mapped.devicePointer(), 256);
  std::vector<unsigned char> back(256);
  device.copyToHost(back.data(), 256);
  EXPECT_EQ(back[255], 0x5a);
}

TEST_F(GpuMemoryKindsTest, ManagedMemoryIsOneAddressForHostAndDevice) {
  ManagedBuffer managed(1024, true);
  std::memset(managed.data(), 3, 1024);
  memsetD8(managed.pointer(), 9, 512);
  synchronize();
  auto *bytes = static_cast<unsigned char *>(managed.data());
  EXPECT_EQ(bytes[0], 9);
  EXPECT_EQ(bytes[1023], 3);
}

TEST_F(GpuMemoryKindsTest, StreamOrderedBuffersComeFromThePoolWhereSupported) {
  auto stream = std::make_shared<const Stream>(Stream::create());
  for (int round = 0; round < 200; ++round) {
    DeviceBuffer buffer(std::size_t(1) << 20, stream);
    EXPECT_EQ(buffer.streamOrdered(), memoryPoolsSupported(buffer.device()));
    memsetD32Async(buffer.pointer(), unsigned(round), 1 << 18, *stream);
  }
  stream->synchronize();
  DeviceBuffer unordered(64);
  EXPECT_FALSE(unordered.streamOrdered());
}

TEST_F(GpuMemoryKindsTest, AnImpossibleAllocationIsOutOfMemoryNamingTheFreeMemory) {
  try {
    DeviceBuffer impossible(std::size_t(1) << 50);
    FAIL() << "a 1 PiB allocation succeeded";
  } catch (const OutOfMemory &error) {
    std::string message = error.what();
    EXPECT_NE(message.find("1125899906842624 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("are free"), std::string::npos) << message;
  }
  EXPECT_THROW(ManagedBuffer(std::size_t(1) << 50, true), OutOfMemory);
}

} // namespace
