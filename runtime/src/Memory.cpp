#include "kaji/runtime/Memory.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/PendingFrees.h"
#include "kaji/runtime/Stream.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace kaji::runtime {

namespace {

// The driver of the selected device, with its primary context current.
const CudaDriver &onSelectedDevice() {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(selectedDevice());
  return driver;
}

// The driver, with the context that `stream` belongs to current, as queued work requires.
const CudaDriver &onDeviceOf(const Stream &stream) {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(stream.device());
  return driver;
}

void checkFits(std::size_t bytes, std::size_t size, const char *what) {
  if (bytes > size)
    throw std::out_of_range(std::string("cannot ") + what + " " + std::to_string(bytes) +
                            " bytes: the device buffer holds " + std::to_string(size));
}

std::string allocationDetail(std::size_t bytes, int device) {
  return "allocating " + std::to_string(bytes) + " bytes on device " + std::to_string(device);
}

} // namespace

DeviceBuffer::DeviceBuffer(std::size_t bytes) : DeviceBuffer(bytes, nullptr) {}

DeviceBuffer::DeviceBuffer(std::size_t bytes, std::shared_ptr<const Stream> stream)
    : size_(bytes), device_(selectedDevice()) {
  if (bytes == 0)
    return;
  driver_ = &onSelectedDevice();
  bool pooled =
      stream && stream->owned() && stream->device() == device_ && memoryPoolsSupported(device_);
  if (!pooled) {
    if (std::optional<PendingFrees::Buffer> freed = PendingFrees::ofDevice(device_).reuse(bytes)) {
      pointer_ = freed->pointer;
      reservation_ = std::move(freed->reservation);
      return;
    }
  }
  reservation_ = reserveFlushingPendingFrees(bytes);
  const char *call = pooled ? "cuMemAllocAsync" : "cuMemAlloc";
  auto allocate = [&] {
    return pooled ? driver_->api().cuMemAllocAsync(&pointer_, bytes, stream->handle())
                  : driver_->api().cuMemAlloc(&pointer_, bytes);
  };
  CUresult result = allocate();
  if (result == CUDA_ERROR_OUT_OF_MEMORY && flushPendingFrees())
    result = allocate();
  if (result == CUDA_ERROR_OUT_OF_MEMORY ||
      (result != CUDA_SUCCESS && bytes > Device::get(device_).memoryInfo().first))
    throw outOfDeviceMemory(bytes, device_);
  if (result != CUDA_SUCCESS)
    driver_->raise(result, call, allocationDetail(bytes, device_));
  if (pooled)
    freeOn_ = std::move(stream);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : pointer_(std::exchange(other.pointer_, 0)), size_(std::exchange(other.size_, 0)),
      device_(other.device_), driver_(other.driver_), freeOn_(std::move(other.freeOn_)),
      reservation_(std::move(other.reservation_)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    release();
    pointer_ = std::exchange(other.pointer_, 0);
    size_ = std::exchange(other.size_, 0);
    device_ = other.device_;
    driver_ = other.driver_;
    freeOn_ = std::move(other.freeOn_);
    reservation_ = std::move(other.reservation_);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { release(); }

void DeviceBuffer::release() noexcept {
  if (pointer_)
    PendingFrees::ofDevice(device_).release(
        {std::exchange(pointer_, 0), size_, std::move(freeOn_), std::move(reservation_)});
  pointer_ = 0;
  size_ = 0;
  freeOn_.reset();
  reservation_ = MemoryReservation();
}

MemoryReservation reserveFlushingPendingFrees(std::size_t bytes) {
  try {
    return MemoryReservation(bytes);
  } catch (const OutOfMemory &) {
    if (!flushPendingFrees())
      throw;
  }
  return MemoryReservation(bytes);
}

bool memoryPoolsSupported(int device) {
  static std::mutex mutex;
  static std::map<int, bool> supported;
  std::lock_guard lock(mutex);
  auto [entry, added] = supported.try_emplace(device, false);
  if (added) {
    const char *setting = std::getenv("KAJI_MEMORY_POOL");
    bool wanted = !setting || std::string_view(setting) != "0";
    entry->second = wanted && CudaDriver::get().api().cuMemAllocAsync &&
                    Device::get(device).attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
  }
  return entry->second;
}

OutOfMemory outOfDeviceMemory(std::size_t bytes, int device) {
  std::string message =
      "cannot allocate " + describeBytes(bytes) + " on device " + std::to_string(device) + ": ";
  try {
    auto [freeBytes, totalBytes] = Device::get(device).memoryInfo();
    message += describeBytes(freeBytes) + " of its " + describeBytes(totalBytes) + " are free";
  } catch (const std::exception &failure) {
    message += std::string("its free memory is unknown (") + failure.what() + ")";
  }
  return OutOfMemory(message);
}

void DeviceBuffer::copyFromHost(const void *src, std::size_t bytes) {
  checkFits(bytes, size_, "copy in");
  copyHostToDevice(pointer_, src, bytes);
}

void DeviceBuffer::copyToHost(void *dst, std::size_t bytes) const {
  checkFits(bytes, size_, "copy out");
  copyDeviceToHost(dst, pointer_, bytes);
}

void copyHostToDevice(CUdeviceptr dst, const void *src, std::size_t bytes) {
  const CudaDriver &driver = onSelectedDevice();
  driver.check(driver.api().cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

void copyDeviceToHost(void *dst, CUdeviceptr src, std::size_t bytes) {
  const CudaDriver &driver = onSelectedDevice();
  driver.check(driver.api().cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

void copyDeviceToDevice(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes) {
  const CudaDriver &driver = onSelectedDevice();
  driver.check(driver.api().cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

void copyHostToDeviceAsync(CUdeviceptr dst, const void *src, std::size_t bytes,
                           const Stream &stream) {
  const CudaDriver &driver = onDeviceOf(stream);
  driver.check(driver.api().cuMemcpyHtoDAsync(dst, src, bytes, stream.queueHandle()),
               "cuMemcpyHtoDAsync");
}

void copyDeviceToHostAsync(void *dst, CUdeviceptr src, std::size_t bytes, const Stream &stream) {
  const CudaDriver &driver = onDeviceOf(stream);
  driver.check(driver.api().cuMemcpyDtoHAsync(dst, src, bytes, stream.queueHandle()),
               "cuMemcpyDtoHAsync");
}

void copyDeviceToDeviceAsync(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                             const Stream &stream) {
  const CudaDriver &driver = onDeviceOf(stream);
  driver.check(driver.api().cuMemcpyDtoDAsync(dst, src, bytes, stream.queueHandle()),
               "cuMemcpyDtoDAsync");
}

void memsetD8(CUdeviceptr dst, std::uint8_t value, std::size_t count) {
  const CudaDriver &driver = onSelectedDevice();
  driver.check(driver.api().cuMemsetD8(dst, value, count), "cuMemsetD8");
}

void memsetD32(CUdeviceptr dst, std::uint32_t value, std::size_t count) {
  const CudaDriver &driver = onSelectedDevice();
  driver.check(driver.api().cuMemsetD32(dst, value, count), "cuMemsetD32");
}

void memsetD8Async(CUdeviceptr dst, std::uint8_t value, std::size_t count, const Stream &stream) {
  const CudaDriver &driver = onDeviceOf(stream);
  driver.check(driver.api().cuMemsetD8Async(dst, value, count, stream.queueHandle()),
               "cuMemsetD8Async");
}

void memsetD32Async(CUdeviceptr dst, std::uint32_t value, std::size_t count, const Stream &stream) {
  const CudaDriver &driver = onDeviceOf(stream);
  driver.check(driver.api().cuMemsetD32Async(dst, value, count, stream.queueHandle()),
               "cuMemsetD32Async");
}

} // namespace kaji::runtime
