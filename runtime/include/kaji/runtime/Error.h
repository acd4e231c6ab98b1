// The runtime's errors: a driver call that failed, no usable driver, an allocation that cannot
// be made.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace kaji::runtime {

// No usable CUDA driver in this process: libcuda could not be loaded, lacks an entry point
// kaji needs, or cuInit failed (no device, the toolkit's stub library, ...). The message says
// which, and that compiling and the cpu target still work.
class DriverUnavailable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// An allocation that cannot be made: past the process's memory limit (MemoryLimit.h), or
// more than the device has free. The message names the size and the limit or the free memory.
class OutOfMemory : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A launch configuration the driver would refuse with CUDA_ERROR_INVALID_VALUE — a zero or
// negative dimension, a block or grid past the device's limits or a block past the kernel's,
// more dynamic shared memory than a block may have — found before the launch. The message
// names the value and the limit.
class InvalidLaunch : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// A driver call returned something other than CUDA_SUCCESS. what() reads
// "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)", followed
// on the next lines by the detail (the JIT error log for module loads) when there is one.
class CudaError : public std::runtime_error {
public:
  CudaError(std::string call, CUresult code, std::string errorName, std::string description,
            std::string detail = {});

  const std::string &call() const { return call_; }
  CUresult code() const { return code_; }
  const std::string &errorName() const { return errorName_; }
  const std::string &description() const { return description_; }
  const std::string &detail() const { return detail_; }

private:
  std::string call_;
  CUresult code_;
  std::string errorName_;
  std::string description_;
  std::string detail_;
};

// The cuda.h name of a CUresult ("CUDA_ERROR_INVALID_PTX") from a table built into kaji, so
// that errors are named even when the driver cannot name them (the stub library, an old
// driver); "CUresult <code>" for a code the table does not know.
std::string cudaErrorName(CUresult code);

// "<call> failed: <name>", with " (<description>)" when the description is not empty.
std::string formatCudaFailure(std::string_view call, std::string_view errorName,
                              std::string_view description);

} // namespace kaji::runtime
