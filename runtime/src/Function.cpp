#include "kaji/runtime/Function.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"

namespace kaji::runtime {

Function::Function(CUfunction handle, int device, const CudaDriver &driver, std::string name)
    : handle_(handle), device_(device), driver_(&driver), name_(std::move(name)) {
  maxThreadsPerBlock_ = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
}

int Function::attribute(CUfunction_attribute attribute) const {
  int value = 0;
  driver_->check(driver_->api().cuFuncGetAttribute(&value, attribute, handle_),
                 "cuFuncGetAttribute");
  return value;
}

int Function::occupancyBlockSize(std::size_t dynamicSharedBytes) const {
  makeCurrent(device_);
  int minGridSize = 0, blockSize = 0;
  driver_->check(driver_->api().cuOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, handle_,
                                                                 nullptr, dynamicSharedBytes, 0),
                 "cuOccupancyMaxPotentialBlockSize");
  return blockSize;
}

int64_t Function::maxCooperativeGridBlocks(int blockThreads, std::size_t dynamicSharedBytes) const {
  makeCurrent(device_);
  int perMultiprocessor = 0;
  driver_->check(driver_->api().cuOccupancyMaxActiveBlocksPerMultiprocessor(
                     &perMultiprocessor, handle_, blockThreads, dynamicSharedBytes),
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return int64_t(perMultiprocessor) * Device::get(device_).multiprocessorCount();
}

void Function::setAttribute(CUfunction_attribute attribute, int value,
                            const std::string &what) const {
  makeCurrent(device_);
  CUresult result = driver_->api().cuFuncSetAttribute(handle_, attribute, value);
  if (result != CUDA_SUCCESS)
    driver_->raise(result, "cuFuncSetAttribute", "kernel '" + name_ + "', " + what);
}

void Function::setMaxDynamicSharedBytes(int bytes) const {
  setAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes,
               std::to_string(bytes) + " bytes of dynamic shared memory");
}

void Function::setPreferredSharedCarveout(int percent) const {
  setAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent,
               "shared memory carveout " + std::to_string(percent));
}

} // namespace kaji::runtime
