// Managed (unified) memory, counted against the memory limit.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"
#include "kaji/runtime/MemoryLimit.h"

#include <cstddef>

namespace kaji::runtime {

// Managed (unified) memory (cuMemAllocManaged): one address that the host and every device
// read and write, the driver migrating pages on demand. Counted against the memory limit like
// device memory, and never more than the selected device has free: a larger request throws
// OutOfMemory naming the size and the free memory, where the driver would oversubscribe.
class ManagedBuffer {
public:
  // `attachGlobal`: any stream may use it (CU_MEM_ATTACH_GLOBAL); otherwise it starts
  // attached to the host (CU_MEM_ATTACH_HOST). Zero bytes still allocates one byte.
  ManagedBuffer(std::size_t bytes, bool attachGlobal);
  ManagedBuffer(const ManagedBuffer &) = delete;
  ManagedBuffer &operator=(const ManagedBuffer &) = delete;
  ~ManagedBuffer();

  CUdeviceptr pointer() const { return pointer_; }
  void *data() const { return reinterpret_cast<void *>(pointer_); }
  std::size_t size() const { return size_; }
  int device() const { return device_; }

private:
  CUdeviceptr pointer_ = 0;
  std::size_t size_ = 0;
  int device_ = -1;
  MemoryReservation reservation_;
};

} // namespace kaji::runtime
