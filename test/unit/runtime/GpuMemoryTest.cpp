#include "GpuTest.h"

#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Stream.h"

#include <numeric>
#include <vector>

using namespace kaji::runtime;

namespace {

using GpuMemoryTest = GpuTest;

TEST_F(GpuMemoryTest, RoundTripThroughTwoBuffers) {
  std::vector<int> input(4096);
  std::iota(input.begin(), input.end(), -100);
  std::size_t bytes = input.size() * sizeof(int);
  DeviceBuffer first(bytes);
  DeviceBuffer second(bytes);
  EXPECT_NE(first.pointer(), 0u);
  first.copyFromHost(input.data(), bytes);
  copyDeviceToDevice(second.pointer(), first.pointer(), bytes);
  std::vector<int> output(input.size());
  second.copyToHost(output.data(), bytes);
  EXPECT_EQ(output, input);
}

TEST_F(GpuMemoryTest, AsyncRoundTripOnAStream) {
  Stream stream = Stream::create();
  EXPECT_FALSE(stream.isDefault());
  std::vector<float> input(1000, 2.5f);
  std::size_t bytes = input.size() * sizeof(float);
  DeviceBuffer first(bytes);
  DeviceBuffer second(bytes);
  copyHostToDeviceAsync(first.pointer(), input.data(), bytes, stream);
  copyDeviceToDeviceAsync(second.pointer(), first.pointer(), bytes, stream);
  std::vector<float> output(input.size());
  copyDeviceToHostAsync(output.data(), second.pointer(), bytes, stream);
  stream.synchronize();
  EXPECT_EQ(output, input);
}

TEST_F(GpuMemoryTest, MemsetBytesAndWords) {
  DeviceBuffer buffer(64 * sizeof(std::uint32_t));
  memsetD32(buffer.pointer(), 0xdeadbeefu, 64);
  memsetD8(buffer.pointer(), 0x11, 8);
  std::vector<std::uint32_t> words(64);
  buffer.copyToHost(words.data(), buffer.size());
  EXPECT_EQ(words[0], 0x11111111u);
  EXPECT_EQ(words[1], 0x11111111u);
  EXPECT_EQ(words[2], 0xdeadbeefu);
  EXPECT_EQ(words[63], 0xdeadbeefu);

  Stream stream = Stream::create();
  memsetD32Async(buffer.pointer(), 7u, 64, stream);
  memsetD8Async(buffer.pointer(), 0, 4, stream);
  stream.synchronize();
  buffer.copyToHost(words.data(), buffer.size());
  EXPECT_EQ(words[0], 0u);
  EXPECT_EQ(words[1], 7u);
}

TEST_F(GpuMemoryTest, CopyBeyondTheBufferIsRefused) {
  DeviceBuffer buffer(16);
  std::vector<char> host(32);
  EXPECT_THROW(buffer.copyFromHost(host.data(), host.size()), std::out_of_range);
  EXPECT_THROW(buffer.copyToHost(host.data(), host.size()), std::out_of_range);
}

TEST_F(GpuMemoryTest, EmptyAndMovedBuffers) {
  DeviceBuffer empty(0);
  EXPECT_EQ(empty.pointer(), 0u);
  DeviceBuffer source(256);
  CUdeviceptr pointer = source.pointer();
  DeviceBuffer moved(std::move(source));
  EXPECT_EQ(moved.pointer(), pointer);
  EXPECT_EQ(source.pointer(), 0u);
  EXPECT_EQ(moved.size(), 256u);
}

} // namespace
