// Primary contexts: the one per device that kaji shares with the CUDA runtime, and the calling
// thread's selected device.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <cstddef>

namespace kaji::runtime {

// The primary context of a device: the one the CUDA runtime (and so PyTorch, CuPy, ...) uses
// too, so device pointers pass freely between kaji and them. It is retained on first use and
// kept for the life of the process: releasing it from a static destructor races the driver's
// own teardown.
class Context {
public:
  // Throws std::out_of_range for a bad ordinal, DriverUnavailable or CudaError.
  static const Context &primary(int device);

  CUcontext handle() const { return handle_; }
  int device() const { return device_; }
  // Waits for all work queued in this context.
  void synchronize() const;
  // The bytes of stack each GPU thread has (CU_LIMIT_STACK_SIZE). The driver grows it for a
  // kernel whose frames need more, except through recursion, whose depth it cannot know.
  std::size_t stackSize() const;
  // Sets it (the driver rounds up); the driver reserves it for every thread the device can
  // hold at once. Throws CudaError where the driver refuses the size.
  void setStackSize(std::size_t bytes) const;

private:
  Context(CUcontext handle, int device) : handle_(handle), device_(device) {}

  CUcontext handle_;
  int device_;
};

// The calling thread's device for new allocations, modules, streams and events (0 until
// selectDevice is called on the thread). Also makes its primary context current.
void selectDevice(int ordinal);
int selectedDevice();
// Waits for all work queued on the selected device.
void synchronize();

// Makes `device`'s primary context current on this thread. It asks the driver which context
// is current, so it is right even after other code (PyTorch, CuPy, the user) switched contexts;
// everything but launch uses it.
void makeCurrent(int device);

namespace detail {
// Which device's primary context this thread last made current, or -1.
extern constinit thread_local int currentDeviceOnThread;
// Makes `device`'s primary context current when the driver says another one is; returns
// whether it had to.
bool recoverCurrentContext(int device);
// For destructors: never throws; false when the context could not be made current.
bool tryMakeCurrent(int device) noexcept;
} // namespace detail

// The launch path's makeCurrent: trusts the thread-local record of the last context kaji made
// current, so the common case is a compare instead of a driver call. If other code switched
// contexts since, the launch fails with CUDA_ERROR_INVALID_CONTEXT and launch's failure path
// recovers and retries.
inline void makeCurrentCached(int device) {
  if (detail::currentDeviceOnThread != device) [[unlikely]]
    makeCurrent(device);
}

} // namespace kaji::runtime
