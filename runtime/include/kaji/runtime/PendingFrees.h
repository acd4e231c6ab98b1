// Device memory frees held back and done in batches, as Numba's deallocation queue does.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"
#include "kaji/runtime/MemoryLimit.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>

namespace kaji::runtime {

class Stream;

// When a device's pending frees are done: once more of them are pending than `count`, or
// more bytes than `deviceMemoryShare` of the device's memory (Numba's CUDA_DEALLOCS_COUNT and
// CUDA_DEALLOCS_RATIO, with its defaults).
struct PendingFreeLimits {
  std::size_t count = 10;
  double deviceMemoryShare = 0.2;
};
PendingFreeLimits pendingFreeLimits();
// Applies to every device from the next free on. Throws std::invalid_argument for a share
// outside [0, 1].
void setPendingFreeLimits(PendingFreeLimits limits);

// One device's frees not done yet. cuMemFree waits for the whole device, so a buffer freed
// without a stream waits here until the limits above are passed, an allocation needs the
// memory, or flush() is called; a stream-ordered free (cuMemFreeAsync) waits for nothing and
// is done at once. While frees are deferred (defer(), Numba's cuda.defer_cleanup()), every
// free on the device waits, the stream-ordered ones too, and nothing is freed: work queued
// before keeps its memory however the program drops its arrays. A pending buffer still counts
// against the memory limit (MemoryLimit.h).
class PendingFrees {
public:
  // The queue of `device`, made on first use and kept for the process: at exit the driver
  // takes back whatever is still pending with the context.
  static PendingFrees &ofDevice(int device);

  // A buffer to free: its device address, size, the stream whose order frees it (null:
  // cuMemFree) and its bytes' reservation against the memory limit.
  struct Buffer {
    CUdeviceptr pointer = 0;
    std::size_t bytes = 0;
    std::shared_ptr<const Stream> stream;
    MemoryReservation reservation;
  };
  // Frees `buffer` now or queues it, as described above. Never throws: a free the driver
  // refuses (after a device fault, at exit) leaves the memory to the context.
  void release(Buffer buffer) noexcept;

  // A pending buffer of exactly `bytes` that was not stream-ordered, taken back for a new
  // allocation in place of a cuMemFree and a cuMemAlloc, or nullopt. Its old work is done
  // first: taking it records an event on the legacy default stream, which starts after all
  // work queued so far on it and on every blocking stream, and which all later work there
  // waits for. So reuse stops (reusesFreedBuffers()) once kaji sees a non-blocking stream,
  // and nothing is reused while frees are deferred or the legacy default stream cannot be
  // used (a blocking stream is capturing a graph). Needs the device's context current.
  std::optional<Buffer> reuse(std::size_t bytes) noexcept;

  // Does every pending free, unless frees are deferred; returns how many it did.
  std::size_t flush() noexcept;

  // Nested: frees resume when each defer() has had its resume().
  void defer();
  void resume();
  bool deferred() const;

  std::size_t count() const;
  std::size_t bytes() const;
  // The pending bytes past which frees are done: the share of the device's memory, rounded
  // down (0 when the driver cannot say how much memory the device has).
  std::size_t maxBytes() const;

private:
  explicit PendingFrees(int device) : device_(device) {}
  std::size_t maxBytesLocked() const;

  int device_;
  mutable std::mutex mutex_;
  std::deque<Buffer> pending_;
  std::size_t bytes_ = 0;
  int deferrals_ = 0;
  mutable std::size_t deviceMemory_ = 0; // read from the driver on first need
  CUevent legacyStreamMarker_ = nullptr; // made on first reuse, kept for the process
};

// Whether PendingFrees::reuse may hand out buffers: until kaji queues work on or waits for a
// non-blocking stream (another library's: Stream::queueHandle checks), whose work the legacy
// default stream does not wait for, so that a buffer it used could still be busy.
bool reusesFreedBuffers() noexcept;
// Stops reuse for the process when `stream` is non-blocking, or its flags cannot be read.
void checkStreamForReuse(CUstream stream) noexcept;

// Flushes every device's queue; whether anything was freed, so that an allocation that found
// no room may try again.
bool flushPendingFrees() noexcept;

} // namespace kaji::runtime
