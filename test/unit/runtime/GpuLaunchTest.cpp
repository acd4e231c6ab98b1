#include "GpuTest.h"
#include "TestKernels.h"

#include "kaji/runtime/Event.h"
#include "kaji/runtime/Launch.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Module.h"

#include <numeric>
#include <optional>
#include <vector>

using namespace kaji::runtime;

namespace {

class GpuLaunchTest : public GpuTest {
protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped())
      return;
    module = Module::loadPtx(test::kAddOnePtx);
    addOne = module->function("add_one");
  }

  // Runs add_one over `count` ints 0..count-1 and returns them.
  std::vector<int> addOneTo(unsigned count, const Stream *stream) {
    std::vector<int> host(count);
    std::iota(host.begin(), host.end(), 0);
    DeviceBuffer buffer(count * sizeof(int));
    buffer.copyFromHost(host.data(), buffer.size());
    CUdeviceptr data = buffer.pointer();
    void *params[] = {&data, &count};
    LaunchConfig config = validateLaunch(addOne, {(count + 127) / 128, 1, 1}, {128, 1, 1}, 0);
    launch(addOne, config, stream, params);
    if (stream)
      stream->synchronize();
    buffer.copyToHost(host.data(), buffer.size());
    return host;
  }

  static std::vector<int> onePlusIota(unsigned count) {
    std::vector<int> expected(count);
    std::iota(expected.begin(), expected.end(), 1);
    return expected;
  }

  std::optional<Module> module;
  Function addOne;
};

TEST_F(GpuLaunchTest, AddsOneOnTheDefaultStream) {
  EXPECT_EQ(addOneTo(1000, nullptr), onePlusIota(1000));
}

TEST_F(GpuLaunchTest, AddsOneOnACreatedStream) {
  Stream stream = Stream::create();
  EXPECT_EQ(addOneTo(777, &stream), onePlusIota(777));
}

TEST_F(GpuLaunchTest, ExternalStreamLeavesItsHandleToItsOwner) {
  Stream owner = Stream::create();
  {
    Stream wrapped = Stream::external(owner.handle());
    EXPECT_EQ(addOneTo(300, &wrapped), onePlusIota(300));
  }
  // Still alive: the wrapper did not destroy it.
  EXPECT_EQ(addOneTo(300, &owner), onePlusIota(300));
}

TEST_F(GpuLaunchTest, StreamsWaitForOtherStreamsAndTheDefaultOnes) {
  Stream producer = Stream::create(), consumer = Stream::create();
  consumer.waitFor(producer.handle());
  consumer.waitFor(CU_STREAM_LEGACY);
  consumer.waitFor(CU_STREAM_PER_THREAD);
  Stream().waitFor(consumer.handle());
  EXPECT_EQ(addOneTo(500, &consumer), onePlusIota(500));
}

TEST_F(GpuLaunchTest, LaunchRecoversWhenAnotherLibrarySwitchedTheContext) {
  unsigned count = 64;
  DeviceBuffer buffer(count * sizeof(int));
  memsetD32(buffer.pointer(), 5u, count);
  CUdeviceptr data = buffer.pointer();
  void *params[] = {&data, &count};
  // What a foreign library may do behind kaji's back: leave no context current on this thread.
  CudaDriver::get().api().cuCtxSetCurrent(nullptr);
  launch(addOne, Dim3{1, 1, 1}, Dim3{count, 1, 1}, 0, nullptr, params);
  std::vector<int> host(count);
  buffer.copyToHost(host.data(), buffer.size());
  EXPECT_EQ(host, std::vector<int>(count, 6));
}

TEST_F(GpuLaunchTest, OtherCallsRecoverWhenAnotherLibrarySwitchedTheContext) {
  CudaDriver::get().api().cuCtxSetCurrent(nullptr);
  EXPECT_EQ(addOneTo(64, nullptr), onePlusIota(64));
}

TEST_F(GpuLaunchTest, DriverRejectionNamesTheKernelAndShape) {
  int unused = 0;
  unsigned count = 0;
  void *params[] = {&unused, &count};
  try {
    launch(addOne, Dim3{1, 1, 1}, Dim3{4096, 1, 1}, 0, nullptr, params);
    FAIL() << "no exception";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuLaunchKernel");
    EXPECT_NE(error.detail().find("kernel 'add_one', grid (1, 1, 1), block (4096, 1, 1)"),
              std::string::npos)
        << error.what();
  }
}

TEST_F(GpuLaunchTest, ValidationUsesTheRealDeviceLimits) {
  EXPECT_THROW(validateLaunch(Device::get(addOne.device()), {1, 1, 1}, {2048, 1, 1}, 0),
               std::invalid_argument);
  EXPECT_NO_THROW(validateLaunch(addOne, {1, 1, 1}, {addOne.maxThreadsPerBlock(), 1, 1}, 0));
}

TEST_F(GpuLaunchTest, EventsTimeTheWorkBetweenThem) {
  Event start;
  Event end;
  DeviceBuffer buffer(64 << 20);
  start.record();
  memsetD32(buffer.pointer(), 1u, buffer.size() / 4);
  end.record();
  end.synchronize();
  float milliseconds = Event::elapsedMs(start, end);
  EXPECT_GT(milliseconds, 0.0f);
  EXPECT_LT(milliseconds, 10000.0f);
}

TEST_F(GpuLaunchTest, EventOnAStreamOfItsDevice) {
  Stream stream = Stream::create();
  Event start;
  Event end;
  start.record(&stream);
  EXPECT_EQ(addOneTo(32, &stream), onePlusIota(32));
  end.record(&stream);
  end.synchronize();
  EXPECT_GE(Event::elapsedMs(start, end), 0.0f);
}

} // namespace
