#include "kaji/runtime/Stream.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/PendingFrees.h"

#include <utility>

namespace kaji::runtime {

Stream::Stream() : device_(selectedDevice()) {}

Stream::Stream(CUstream handle, int device, const CudaDriver *owner)
    : handle_(handle), device_(device), owner_(owner) {}

Stream Stream::create() {
  const CudaDriver &driver = CudaDriver::get();
  int device = selectedDevice();
  makeCurrent(device);
  CUstream handle = nullptr;
  // A blocking stream, as Numba's: work on the legacy default stream (a launch or copy given
  // no stream) waits for it, so `copy_to_host()` after work on a stream sees that work.
  driver.check(driver.api().cuStreamCreate(&handle, CU_STREAM_DEFAULT), "cuStreamCreate");
  return Stream(handle, device, &driver);
}

Stream Stream::external(CUstream handle) {
  Stream stream(handle, selectedDevice(), nullptr);
  stream.unchecked_ = handle && handle != CU_STREAM_LEGACY && handle != CU_STREAM_PER_THREAD;
  return stream;
}

void Stream::checkForReuse() const noexcept {
  checkStreamForReuse(handle_);
  unchecked_.store(false, std::memory_order_relaxed);
}

Stream::Stream(Stream &&other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), device_(other.device_),
      owner_(std::exchange(other.owner_, nullptr)),
      unchecked_(other.unchecked_.exchange(false, std::memory_order_relaxed)) {}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    destroy();
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = other.device_;
    owner_ = std::exchange(other.owner_, nullptr);
    unchecked_.store(other.unchecked_.exchange(false, std::memory_order_relaxed),
                     std::memory_order_relaxed);
  }
  return *this;
}

Stream::~Stream() { destroy(); }

void Stream::destroy() noexcept {
  // Queued work still completes after cuStreamDestroy; failures at exit are of no consequence.
  if (owner_ && handle_)
    owner_->api().cuStreamDestroy(handle_);
  handle_ = nullptr;
  owner_ = nullptr;
}

void Stream::synchronize() const {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(device_);
  driver.check(driver.api().cuStreamSynchronize(queueHandle()), "cuStreamSynchronize");
}

void Stream::waitFor(CUstream producer) const {
  const CudaDriver &driver = CudaDriver::get();
  const CudaDriverApi &api = driver.api();
  makeCurrent(device_);
  CUevent marker = nullptr;
  driver.check(api.cuEventCreate(&marker, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  checkStreamForReuse(producer);
  CUresult recorded = api.cuEventRecord(marker, producer);
  CUresult waited =
      recorded == CUDA_SUCCESS ? api.cuStreamWaitEvent(queueHandle(), marker, 0) : recorded;
  // Destroying a recorded event is safe: the driver frees it once the wait is satisfied.
  api.cuEventDestroy(marker);
  driver.check(recorded, "cuEventRecord");
  driver.check(waited, "cuStreamWaitEvent");
}

} // namespace kaji::runtime
