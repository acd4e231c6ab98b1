// CUDA events: markers in a stream, for waiting on and timing device work.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

namespace kaji::runtime {

class CudaDriver;
class Stream;

// A marker in a stream, for waiting on and timing device work. Created on the selected device.
class Event {
public:
  // `timing`: whether elapsedMs may measure it (events without are lighter to record).
  explicit Event(bool timing = true);
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  // Records the event after the work queued so far on `stream` (nullptr: the default stream).
  void record(const Stream *stream = nullptr);
  // Waits until the recorded work is done.
  void synchronize() const;
  // Whether the recorded work is done, without waiting.
  bool query() const;
  // Work queued on `stream` (nullptr: the default stream) from now on starts after the
  // recorded work; the host does not wait.
  void wait(const Stream *stream = nullptr) const;
  // Milliseconds between two recorded, completed events; std::invalid_argument when either
  // was made without timing.
  static float elapsedMs(const Event &start, const Event &end);

  CUevent handle() const { return handle_; }
  int device() const { return device_; }
  bool timing() const { return timing_; }

private:
  void destroy() noexcept;

  CUevent handle_ = nullptr;
  int device_ = 0;
  const CudaDriver *driver_ = nullptr;
  bool timing_ = true;
};

} // namespace kaji::runtime
