#include "kaji/runtime/PendingFrees.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Stream.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kaji::runtime {

namespace {

std::mutex limitsMutex;
PendingFreeLimits limits;

std::atomic<bool> reuseAllowed{true};

struct Queues {
  std::mutex mutex;
  std::map<int, PendingFrees *> byDevice;
};

// Never destroyed: buffers may be released from static destructors after this file's would
// have run, and at exit the driver takes back what is pending anyway.
Queues &queues() {
  static Queues *all = new Queues;
  return *all;
}

void freeNow(int device, PendingFrees::Buffer &buffer) noexcept {
  if (!buffer.pointer || !detail::tryMakeCurrent(device))
    return;
  const CudaDriver &driver = CudaDriver::get();
  if (buffer.stream)
    driver.api().cuMemFreeAsync(buffer.pointer, buffer.stream->handle());
  else
    driver.api().cuMemFree(buffer.pointer);
}

// Queues an event on the legacy default stream, after all work queued so far there and on the
// blocking streams and before all work queued there later; false when the stream cannot take
// work now (a blocking stream is capturing: an operation there would end that capture).
bool markLegacyStream(CUevent &marker) noexcept try {
  const CudaDriverApi &api = CudaDriver::get().api();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (!api.cuStreamGetCaptureInfo ||
      api.cuStreamGetCaptureInfo(CU_STREAM_LEGACY, &capture, nullptr, nullptr, nullptr, nullptr) !=
          CUDA_SUCCESS ||
      capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return false;
  if (!marker && api.cuEventCreate(&marker, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    marker = nullptr;
    return false;
  }
  return api.cuEventRecord(marker, CU_STREAM_LEGACY) == CUDA_SUCCESS;
} catch (const std::exception &) {
  return false;
}

} // namespace

bool reusesFreedBuffers() noexcept { return reuseAllowed.load(std::memory_order_relaxed); }

void checkStreamForReuse(CUstream stream) noexcept {
  if (!stream || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD ||
      !reusesFreedBuffers())
    return;
  unsigned flags = CU_STREAM_NON_BLOCKING;
  try {
    const CudaDriverApi &api = CudaDriver::get().api();
    if (api.cuStreamGetFlags && api.cuStreamGetFlags(stream, &flags) != CUDA_SUCCESS)
      flags = CU_STREAM_NON_BLOCKING;
  } catch (const std::exception &) {
  }
  if (flags & CU_STREAM_NON_BLOCKING)
    reuseAllowed.store(false, std::memory_order_relaxed);
}

PendingFreeLimits pendingFreeLimits() {
  std::lock_guard lock(limitsMutex);
  return limits;
}

void setPendingFreeLimits(PendingFreeLimits newLimits) {
  if (!(newLimits.deviceMemoryShare >= 0 && newLimits.deviceMemoryShare <= 1))
    throw std::invalid_argument("the share of device memory that pending frees may hold is "
                                "between 0 and 1, not " +
                                std::to_string(newLimits.deviceMemoryShare));
  std::lock_guard lock(limitsMutex);
  limits = newLimits;
}

PendingFrees &PendingFrees::ofDevice(int device) {
  Queues &all = queues();
  std::lock_guard lock(all.mutex);
  PendingFrees *&queue = all.byDevice[device];
  if (!queue)
    queue = new PendingFrees(device);
  return *queue;
}

void PendingFrees::release(Buffer buffer) noexcept {
  std::unique_lock lock(mutex_);
  if (buffer.stream && deferrals_ == 0) {
    lock.unlock();
    freeNow(device_, buffer);
    return;
  }
  bytes_ += buffer.bytes;
  pending_.push_back(std::move(buffer));
  PendingFreeLimits now = pendingFreeLimits();
  if (deferrals_ == 0 && (pending_.size() > now.count || bytes_ > maxBytesLocked())) {
    lock.unlock();
    flush();
  }
}

std::optional<PendingFrees::Buffer> PendingFrees::reuse(std::size_t bytes) noexcept {
  if (!reusesFreedBuffers())
    return std::nullopt;
  std::lock_guard lock(mutex_);
  if (deferrals_ > 0)
    return std::nullopt;
  auto match = std::find_if(pending_.begin(), pending_.end(), [&](const Buffer &buffer) {
    return buffer.bytes == bytes && !buffer.stream;
  });
  // Under the lock: the marker must follow the buffer's release, and a flush must not free
  // the buffer meanwhile.
  if (match == pending_.end() || !markLegacyStream(legacyStreamMarker_))
    return std::nullopt;
  Buffer taken = std::move(*match);
  pending_.erase(match);
  bytes_ -= taken.bytes;
  return taken;
}

std::size_t PendingFrees::flush() noexcept {
  std::deque<Buffer> due;
  {
    std::lock_guard lock(mutex_);
    if (deferrals_ > 0)
      return 0;
    due.swap(pending_);
    bytes_ = 0;
  }
  // Freed outside the lock: a buffer's stream may be the last reference to it, and threads
  // releasing buffers meanwhile only queue them.
  for (Buffer &buffer : due)
    freeNow(device_, buffer);
  return due.size();
}

void PendingFrees::defer() {
  std::lock_guard lock(mutex_);
  ++deferrals_;
}

void PendingFrees::resume() {
  std::lock_guard lock(mutex_);
  if (deferrals_ == 0)
    throw std::logic_error("resume() of device " + std::to_string(device_) +
                           "'s pending frees without a defer()");
  --deferrals_;
}

bool PendingFrees::deferred() const {
  std::lock_guard lock(mutex_);
  return deferrals_ > 0;
}

std::size_t PendingFrees::count() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

std::size_t PendingFrees::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::size_t PendingFrees::maxBytes() const {
  std::lock_guard lock(mutex_);
  return maxBytesLocked();
}

std::size_t PendingFrees::maxBytesLocked() const {
  if (deviceMemory_ == 0) {
    try {
      deviceMemory_ = Device::get(device_).memoryInfo().second;
    } catch (const std::exception &) {
      return 0;
    }
  }
  return std::size_t(std::floor(double(deviceMemory_) * pendingFreeLimits().deviceMemoryShare));
}

bool flushPendingFrees() noexcept {
  std::vector<PendingFrees *> all;
  {
    Queues &each = queues();
    std::lock_guard lock(each.mutex);
    for (auto &[device, queue] : each.byDevice)
      all.push_back(queue);
  }
  std::size_t freed = 0;
  for (PendingFrees *queue : all)
    freed += queue->flush();
  return freed > 0;
}

} // namespace kaji::runtime
