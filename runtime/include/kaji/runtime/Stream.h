// CUDA streams: queues of device work, and waiting for them.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <atomic>

namespace kaji::runtime {

class CudaDriver;

// A queue of device work. Default-constructed, it is the selected device's default (NULL)
// stream and owns nothing; Stream::create() makes a stream of its own.
class Stream {
public:
  Stream();
  // A new blocking stream on the selected device, as Numba's: work on the legacy default
  // stream waits for it, and it for the legacy default stream.
  static Stream create();
  // A stream another library made (or the pseudo-handle CU_STREAM_LEGACY or
  // CU_STREAM_PER_THREAD), taken to be on the selected device; the other library keeps
  // ownership, so it must outlive this object's use.
  static Stream external(CUstream handle);

  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  CUstream handle() const { return handle_; }
  // The handle, for queueing work on or waiting for the stream. The first time, for another
  // library's stream, it tells PendingFrees whether the stream is non-blocking
  // (checkStreamForReuse): asked then, not when wrapped, as a handle never used may be stale.
  CUstream queueHandle() const {
    if (unchecked_.load(std::memory_order_relaxed)) [[unlikely]]
      checkForReuse();
    return handle_;
  }
  int device() const { return device_; }
  bool isDefault() const { return handle_ == nullptr; }
  // Whether this object created the stream (and destroys it), rather than taking another
  // library's handle or a default stream.
  bool owned() const { return owner_ != nullptr; }
  // Waits until all work queued on the stream is done.
  void synchronize() const;
  // Work queued on this stream from now on starts after the work queued so far on `producer`
  // (any stream of this device, or a pseudo-handle); the host does not wait.
  void waitFor(CUstream producer) const;

private:
  Stream(CUstream handle, int device, const CudaDriver *owner);
  void destroy() noexcept;
  void checkForReuse() const noexcept;

  CUstream handle_ = nullptr;
  int device_ = 0;
  // Set only for streams this object created and must destroy.
  const CudaDriver *owner_ = nullptr;
  mutable std::atomic<bool> unchecked_{false}; // another library's, not yet checked
};

} // namespace kaji::runtime
