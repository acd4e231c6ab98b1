// A kernel entry point of a loaded module, and its attributes.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kaji::runtime {

class CudaDriver;

// A kernel entry point of a loaded Module. A handle: it is valid only while its Module is.
class Function {
public:
  Function() = default;

  CUfunction handle() const { return handle_; }
  int device() const { return device_; }
  const CudaDriver &driver() const { return *driver_; }
  const std::string &name() const { return name_; }
  // The most threads a block of this kernel may have: the device's limit, or fewer when the
  // kernel uses many registers.
  int maxThreadsPerBlock() const { return maxThreadsPerBlock_; }

  int attribute(CUfunction_attribute attribute) const;
  // The block size that gives this kernel the most resident threads on its device with
  // `dynamicSharedBytes` per block (cuOccupancyMaxPotentialBlockSize).
  int occupancyBlockSize(std::size_t dynamicSharedBytes) const;
  // The most blocks of `blockThreads` threads with `dynamicSharedBytes` each that can be
  // resident on the device at once: what a cooperative launch may have
  // (cuOccupancyMaxActiveBlocksPerMultiprocessor × the multiprocessors).
  int64_t maxCooperativeGridBlocks(int blockThreads, std::size_t dynamicSharedBytes) const;
  // Lets launches ask for more than the default 48 KiB of dynamic shared memory, up to
  // DeviceLimits::maxSharedBytesPerBlockOptin.
  void setMaxDynamicSharedBytes(int bytes) const;
  // The share of the SM's L1/shared storage to give shared memory, as a percentage; -1 for
  // the driver's default (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT).
  void setPreferredSharedCarveout(int percent) const;

private:
  friend class Module;
  Function(CUfunction handle, int device, const CudaDriver &driver, std::string name);
  void setAttribute(CUfunction_attribute attribute, int value, const std::string &what) const;

  CUfunction handle_ = nullptr;
  int device_ = -1;
  const CudaDriver *driver_ = nullptr;
  std::string name_;
  int maxThreadsPerBlock_ = 0;
};

} // namespace kaji::runtime
