// CUDA devices: their properties, compute capability and the limits a launch is checked against.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace kaji::runtime {

struct ComputeCapability {
  int major = 0;
  int minor = 0;

  friend auto operator<=>(const ComputeCapability &, const ComputeCapability &) = default;
};

// What a launch may ask of a device. Device fills it from the driver; tests and tools may
// build one by hand.
struct DeviceLimits {
  std::int64_t maxThreadsPerBlock = 0;
  std::array<std::int64_t, 3> maxBlockDim{};
  std::array<std::int64_t, 3> maxGridDim{};
  // Dynamic shared memory a kernel gets without opting in (Function::setMaxDynamicSharedBytes),
  // and the most it can opt in to.
  std::int64_t maxSharedBytesPerBlock = 0;
  std::int64_t maxSharedBytesPerBlockOptin = 0;
  int warpSize = 0;
};

// One CUDA device, its properties queried once when the device table is first needed.
class Device {
public:
  // Number of devices the driver sees. Throws DriverUnavailable.
  static int count();
  // Throws std::out_of_range naming the number of devices for a bad ordinal.
  static const Device &get(int ordinal);

  int ordinal() const { return ordinal_; }
  CUdevice handle() const { return handle_; }
  const std::string &name() const { return name_; }
  ComputeCapability computeCapability() const { return computeCapability_; }
  int multiprocessorCount() const { return multiprocessorCount_; }
  std::size_t totalMemory() const { return totalMemory_; }
  // Asked of the driver on every call (makes this device's primary context current).
  std::size_t freeMemory() const;
  // (free, total) bytes of this device's memory, asked of the driver on every call.
  std::pair<std::size_t, std::size_t> memoryInfo() const;
  // Any CUdevice_attribute (DeviceAttributes.h names them), asked of the driver.
  int attribute(int code) const;
  const DeviceLimits &limits() const { return limits_; }
  int warpSize() const { return limits_.warpSize; }

private:
  class Table;
  Device() = default;

  int ordinal_ = 0;
  CUdevice handle_ = 0;
  std::string name_;
  ComputeCapability computeCapability_;
  int multiprocessorCount_ = 0;
  std::size_t totalMemory_ = 0;
  DeviceLimits limits_;
};

} // namespace kaji::runtime
