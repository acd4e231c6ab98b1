#include "kaji/runtime/PageLockedMemory.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Memory.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>

namespace kaji::runtime {

namespace {

// The host ranges kaji page-locked, start -> end, so that copies can tell pinned memory
// from pageable memory without asking the driver.
class PageLockedRanges {
public:
  void add(const void *data, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    ranges_[address(data)] = address(data) + bytes;
  }
  void remove(const void *data) {
    std::lock_guard lock(mutex_);
    ranges_.erase(address(data));
  }
  bool contains(const void *data, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    auto after = ranges_.upper_bound(address(data));
    if (after == ranges_.begin())
      return false;
    auto containing = std::prev(after);
    return address(data) + bytes <= containing->second;
  }

private:
  static std::uintptr_t address(const void *data) { return reinterpret_cast<std::uintptr_t>(data); }

  std::mutex mutex_;
  std::map<std::uintptr_t, std::uintptr_t> ranges_;
};

PageLockedRanges &pageLockedRanges() {
  // Never destroyed: pinned buffers held by static objects may be freed after it would be.
  static auto *ranges = new PageLockedRanges;
  return *ranges;
}

const CudaDriver &onSelectedDevice() {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(selectedDevice());
  return driver;
}

CUdeviceptr mappedAddress(void *data, const char *what) {
  const CudaDriver &driver = onSelectedDevice();
  CUdeviceptr pointer = 0;
  CUresult result = driver.api().cuMemHostGetDevicePointer(&pointer, data, 0);
  if (result != CUDA_SUCCESS)
    driver.raise(result, "cuMemHostGetDevicePointer",
                 std::string("the ") + what + " was not page-locked as mapped memory");
  return pointer;
}

} // namespace

PinnedHostBuffer::PinnedHostBuffer(std::size_t bytes, PageLockOptions options)
    : size_(bytes), device_(selectedDevice()) {
  const CudaDriver &driver = onSelectedDevice();
  unsigned flags = (options.portable ? CU_MEMHOSTALLOC_PORTABLE : 0) |
                   (options.mapped ? CU_MEMHOSTALLOC_DEVICEMAP : 0) |
                   (options.writeCombined ? CU_MEMHOSTALLOC_WRITECOMBINED : 0);
  CUresult result = driver.api().cuMemHostAlloc(&data_, std::max<std::size_t>(bytes, 1), flags);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    throw OutOfMemory("cannot allocate " + describeBytes(bytes) +
                      " of page-locked host memory: the operating system refused to lock that "
                      "much (ulimit -l, or too little free RAM)");
  if (result != CUDA_SUCCESS)
    driver.raise(result, "cuMemHostAlloc",
                 "allocating " + describeBytes(bytes) + " of page-locked host memory");
  pageLockedRanges().add(data_, size_);
}

PinnedHostBuffer::~PinnedHostBuffer() {
  pageLockedRanges().remove(data_);
  // At exit the driver may refuse; the memory goes with the process.
  if (detail::tryMakeCurrent(device_))
    CudaDriver::get().api().cuMemFreeHost(data_);
}

CUdeviceptr PinnedHostBuffer::devicePointer() const { return mappedAddress(data_, "buffer"); }

HostRegistration::HostRegistration(void *data, std::size_t bytes, PageLockOptions options)
    : data_(data), bytes_(bytes), device_(selectedDevice()) {
  if (bytes == 0 || isPageLocked(data, bytes))
    return;
  const CudaDriver &driver = onSelectedDevice();
  unsigned flags = (options.portable ? CU_MEMHOSTREGISTER_PORTABLE : 0) |
                   (options.mapped ? CU_MEMHOSTREGISTER_DEVICEMAP : 0);
  CUresult result = driver.api().cuMemHostRegister(data, bytes, flags);
  if (result == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    return;
  if (result != CUDA_SUCCESS)
    driver.raise(result, "cuMemHostRegister",
                 "page-locking " + describeBytes(bytes) + " of host memory");
  registered_ = true;
  pageLockedRanges().add(data_, bytes_);
}

HostRegistration::~HostRegistration() { release(); }

void HostRegistration::release() noexcept {
  if (!registered_)
    return;
  registered_ = false;
  pageLockedRanges().remove(data_);
  if (detail::tryMakeCurrent(device_))
    CudaDriver::get().api().cuMemHostUnregister(data_);
}

CUdeviceptr HostRegistration::devicePointer() const {
  return mappedAddress(data_, "registered memory");
}

bool isPageLocked(const void *data, std::size_t bytes) {
  return pageLockedRanges().contains(data, bytes);
}

} // namespace kaji::runtime
