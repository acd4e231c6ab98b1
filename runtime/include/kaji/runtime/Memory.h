#pragma once

#include "kaji/runtime/DriverTypes.h"

#include <cstddef>
#include <cstdint>

namespace kaji::runtime {

class Driver;
class Stream;

// Device memory on one device, freed when the buffer is destroyed.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  // Allocates on the selected device. Zero bytes gives an empty buffer with a null pointer.
  explicit DeviceBuffer(std::size_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  CUdeviceptr pointer() const { return pointer_; }
  std::size_t size() const { return size_; }
  int device() const { return device_; }

  // Synchronous copies of the first `bytes` bytes; more than size() throws std::out_of_range.
  void copyFromHost(const void *src, std::size_t bytes);
  void copyToHost(void *dst, std::size_t bytes) const;

private:
  void release() noexcept;

  CUdeviceptr pointer_ = 0;
  std::size_t size_ = 0;
  int device_ = -1;
  const Driver *driver_ = nullptr;
};

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
