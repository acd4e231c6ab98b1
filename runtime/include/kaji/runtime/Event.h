#pragma once

#include "kaji/runtime/DriverTypes.h"

namespace kaji::runtime {

class Driver;
class Stream;

// A marker in a stream, for waiting on and timing device work. Created on the selected device.
class Event {
public:
  Event();
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  // Records the event after the work queued so far on `stream` (nullptr: the default stream).
  void record(const Stream *stream = nullptr);
  // Waits until the recorded work is done.
  void synchronize() const;
  // Milliseconds between two recorded, completed events.
  static float elapsedMs(const Event &start, const Event &end);

  CUevent handle() const { return handle_; }
  int device() const { return device_; }

private:
  void destroy() noexcept;

  CUevent handle_ = nullptr;
  int device_ = 0;
  const Driver *driver_ = nullptr;
};

} // namespace kaji::runtime
