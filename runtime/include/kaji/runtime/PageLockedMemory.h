// Page-locked host memory: allocated by the driver, or registered over the caller's.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <cstddef>

namespace kaji::runtime {

// How page-locked host memory is set up: `portable` pins it for every context, not just the
// selected device's; `mapped` maps it into the device's address space, so kernels read and
// write it directly (devicePointer()); `writeCombined` (allocations only) makes the host's
// writes and the device's reads faster and the host's reads very slow.
struct PageLockOptions {
  bool portable = false;
  bool mapped = false;
  bool writeCombined = false;
};

// Page-locked host memory allocated by the driver (cuMemHostAlloc), freed when the buffer is
// destroyed. Copies between it and the device run asynchronously on a stream.
class PinnedHostBuffer {
public:
  // Zero bytes still allocates (one byte), so data() is never null.
  PinnedHostBuffer(std::size_t bytes, PageLockOptions options);
  PinnedHostBuffer(const PinnedHostBuffer &) = delete;
  PinnedHostBuffer &operator=(const PinnedHostBuffer &) = delete;
  ~PinnedHostBuffer();

  void *data() const { return data_; }
  std::size_t size() const { return size_; }
  // The address of the memory in the selected device's kernels; needs `mapped`.
  CUdeviceptr devicePointer() const;

private:
  void *data_ = nullptr;
  std::size_t size_ = 0;
  int device_; // whose context allocated it
};

// Existing host memory page-locked (cuMemHostRegister) while this object lives. Memory that is
// page-locked already (by kaji, or found registered by the driver) is left as it is.
class HostRegistration {
public:
  HostRegistration(void *data, std::size_t bytes, PageLockOptions options);
  HostRegistration(const HostRegistration &) = delete;
  HostRegistration &operator=(const HostRegistration &) = delete;
  ~HostRegistration();

  // Unregisters now rather than at destruction; later calls do nothing.
  void release() noexcept;
  // The address of the memory in the selected device's kernels; needs `mapped`.
  CUdeviceptr devicePointer() const;

private:
  void *data_;
  std::size_t bytes_;
  int device_;              // whose context registered it
  bool registered_ = false; // whether this object registered the memory and must unregister it
};

// Whether [data, data + bytes) lies inside memory kaji page-locked (either class above).
bool isPageLocked(const void *data, std::size_t bytes);

} // namespace kaji::runtime
