// Device memory and the copies between it and the host.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"
#include "kaji/runtime/Error.h"
#include "kaji/runtime/MemoryLimit.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kaji::runtime {

class CudaDriver;
class Stream;

// Device memory on one device, released when the buffer is destroyed: freed then or in a batch
// soon after (PendingFrees.h). Its bytes count against
// the process's memory limit (MemoryLimit.h) while it lives. An allocation past the limit, or
// one the device has no room for, throws OutOfMemory naming the size and the limit or the free
// memory.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  // Allocates on the selected device with cuMemAlloc; freeing waits for the device, so the
  // buffer may be used on any stream. Zero bytes gives an empty buffer with a null pointer.
  explicit DeviceBuffer(std::size_t bytes);
  // Stream-ordered: allocated from the device's memory pool in `stream`'s order and freed in
  // it (cuMemAllocAsync / cuMemFreeAsync), without waiting for the device, when the device has
  // memory pools and `stream` is one kaji created (the buffer keeps it alive); otherwise as
  // above. Work on other streams must be ordered after `stream` to use the buffer.
  DeviceBuffer(std::size_t bytes, std::shared_ptr<const Stream> stream);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  CUdeviceptr pointer() const { return pointer_; }
  std::size_t size() const { return size_; }
  int device() const { return device_; }
  // Whether the buffer came from the memory pool, to be freed in its stream's order.
  bool streamOrdered() const { return bool(freeOn_); }

  // Synchronous copies of the first `bytes` bytes; more than size() throws std::out_of_range.
  void copyFromHost(const void *src, std::size_t bytes);
  void copyToHost(void *dst, std::size_t bytes) const;

private:
  void release() noexcept;

  CUdeviceptr pointer_ = 0;
  std::size_t size_ = 0;
  int device_ = -1;
  const CudaDriver *driver_ = nullptr;
  std::shared_ptr<const Stream> freeOn_; // set for a stream-ordered buffer
  MemoryReservation reservation_;
};

// The reservation of `bytes` against the memory limit, made after the pending frees
// (PendingFrees.h) when they stand in its way; OutOfMemory when even then it passes the limit.
MemoryReservation reserveFlushingPendingFrees(std::size_t bytes);

// Whether `device` can allocate stream-ordered memory (the driver has cuMemAllocAsync and
// the device CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED), and $KAJI_MEMORY_POOL is not "0".
bool memoryPoolsSupported(int device);

// The OutOfMemory for `bytes` that the driver could not allocate on `device`, naming the size
// and the device's free and total memory.
OutOfMemory outOfDeviceMemory(std::size_t bytes, int device);

// Copies and fills on raw device pointers (kaji's buffers or anyone else's: with unified
// addressing a pointer names its device). The synchronous ones run on the selected device's
// default stream and return when done; the Async ones are queued on `stream`.
void copyHostToDevice(CUdeviceptr dst, const void *src, std::size_t bytes);
void copyDeviceToHost(void *dst, CUdeviceptr src, std::size_t bytes);
void copyDeviceToDevice(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes);
void copyHostToDeviceAsync(CUdeviceptr dst, const void *src, std::size_t bytes,
                           const Stream &stream);
void copyDeviceToHostAsync(void *dst, CUdeviceptr src, std::size_t bytes, const Stream &stream);
void copyDeviceToDeviceAsync(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                             const Stream &stream);

// Sets `count` bytes (D8) or 32-bit words (D32) starting at `dst` to `value`.
void memsetD8(CUdeviceptr dst, std::uint8_t value, std::size_t count);
void memsetD32(CUdeviceptr dst, std::uint32_t value, std::size_t count);
void memsetD8Async(CUdeviceptr dst, std::uint8_t value, std::size_t count, const Stream &stream);
void memsetD32Async(CUdeviceptr dst, std::uint32_t value, std::size_t count, const Stream &stream);

} // namespace kaji::runtime
