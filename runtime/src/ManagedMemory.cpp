#include "kaji/runtime/ManagedMemory.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/PendingFrees.h"

#include <algorithm>

namespace kaji::runtime {

ManagedBuffer::ManagedBuffer(std::size_t bytes, bool attachGlobal)
    : size_(bytes), device_(selectedDevice()) {
  reservation_ = reserveFlushingPendingFrees(bytes);
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(device_);
  if (bytes > Device::get(device_).memoryInfo().first &&
      !(flushPendingFrees() && bytes <= Device::get(device_).memoryInfo().first))
    throw outOfDeviceMemory(bytes, device_);
  unsigned flags = attachGlobal ? CU_MEM_ATTACH_GLOBAL : CU_MEM_ATTACH_HOST;
  CUresult result =
      driver.api().cuMemAllocManaged(&pointer_, std::max<std::size_t>(bytes, 1), flags);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    throw outOfDeviceMemory(bytes, device_);
  if (result != CUDA_SUCCESS)
    driver.raise(result, "cuMemAllocManaged",
                 "allocating " + describeBytes(bytes) + " of managed memory on device " +
                     std::to_string(device_));
}

ManagedBuffer::~ManagedBuffer() {
  if (pointer_ && detail::tryMakeCurrent(device_))
    CudaDriver::get().api().cuMemFree(pointer_);
}

} // namespace kaji::runtime
