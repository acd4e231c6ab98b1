#include "kaji/runtime/Launch.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace kaji::runtime {

namespace {

constexpr const char *kAxisNames[3] = {"x", "y", "z"};

std::string text(const Extent3 &extent) {
  std::string result = "(";
  for (int axis = 0; axis < 3; ++axis)
    result.append(axis == 0 ? "" : ", ").append(std::to_string(extent[axis]));
  return result.append(")");
}

std::string text(Dim3 dim) { return text(Extent3{dim.x, dim.y, dim.z}); }

void requirePositive(const Extent3 &extent, const char *what) {
  for (int axis = 0; axis < 3; ++axis)
    if (extent[axis] < 1)
      throw InvalidLaunch(std::string(what) + " dimension " + kAxisNames[axis] + " is " +
                          std::to_string(extent[axis]) + " in " + what + " " + text(extent) +
                          "; every dimension must be at least 1");
}

void requireWithin(const Extent3 &extent, const std::array<std::int64_t, 3> &maximum,
                   const char *what) {
  for (int axis = 0; axis < 3; ++axis)
    if (extent[axis] > maximum[axis])
      throw InvalidLaunch(std::string(what) + " dimension " + kAxisNames[axis] + " is " +
                          std::to_string(extent[axis]) + ", above the device's maximum of " +
                          std::to_string(maximum[axis]));
}

// Saturates instead of overflowing: any product past int64 is over every limit anyway.
std::int64_t threadCount(const Extent3 &block) {
  std::int64_t total = 1;
  for (std::int64_t size : block)
    if (__builtin_mul_overflow(total, size, &total))
      return std::numeric_limits<std::int64_t>::max();
  return total;
}

Dim3 toDim3(const Extent3 &extent) {
  return {static_cast<unsigned>(extent[0]), static_cast<unsigned>(extent[1]),
          static_cast<unsigned>(extent[2])};
}

LaunchConfig validate(const DeviceLimits &limits, std::int64_t maxThreads,
                      const std::string &threadLimit, const Extent3 &grid, const Extent3 &block,
                      std::int64_t sharedBytes) {
  requirePositive(grid, "grid");
  requirePositive(block, "block");
  if (std::int64_t threads = threadCount(block); threads > maxThreads)
    throw InvalidLaunch("block size " + std::to_string(threads) + " exceeds " + threadLimit +
                        " of " + std::to_string(maxThreads) + " threads per block");
  requireWithin(block, limits.maxBlockDim, "block");
  requireWithin(grid, limits.maxGridDim, "grid");
  if (sharedBytes < 0)
    throw InvalidLaunch("dynamic shared memory size is " + std::to_string(sharedBytes) +
                        " bytes; it must not be negative");
  std::int64_t maxShared =
      std::max(limits.maxSharedBytesPerBlock, limits.maxSharedBytesPerBlockOptin);
  if (sharedBytes > maxShared)
    throw InvalidLaunch(std::to_string(sharedBytes) +
                        " bytes of dynamic shared memory exceed the device's maximum of " +
                        std::to_string(maxShared) + " bytes per block");
  return {toDim3(grid), toDim3(block), static_cast<unsigned>(sharedBytes)};
}

} // namespace

LaunchConfig validateLaunch(const DeviceLimits &limits, const Extent3 &grid, const Extent3 &block,
                            std::int64_t sharedBytes) {
  return validate(limits, limits.maxThreadsPerBlock, "the device's maximum", grid, block,
                  sharedBytes);
}

LaunchConfig validateLaunch(const DeviceLimits &limits, std::int64_t maxThreads,
                            const std::string &threadLimit, const Extent3 &grid,
                            const Extent3 &block, std::int64_t sharedBytes) {
  return validate(limits, std::min(maxThreads, limits.maxThreadsPerBlock), threadLimit, grid, block,
                  sharedBytes);
}

LaunchConfig validateLaunch(const Device &device, const Extent3 &grid, const Extent3 &block,
                            std::int64_t sharedBytes) {
  return validateLaunch(device.limits(), grid, block, sharedBytes);
}

LaunchConfig validateLaunch(const Function &function, const Extent3 &grid, const Extent3 &block,
                            std::int64_t sharedBytes) {
  const DeviceLimits &limits = Device::get(function.device()).limits();
  if (function.maxThreadsPerBlock() < limits.maxThreadsPerBlock)
    return validate(limits, function.maxThreadsPerBlock(),
                    "the maximum kernel '" + function.name() +
                        "''s registers and launch_bounds allow",
                    grid, block, sharedBytes);
  return validateLaunch(limits, grid, block, sharedBytes);
}

void launchCooperative(const Function &function, const LaunchConfig &config, const Stream *stream,
                       void **params) {
  makeCurrentCached(function.device());
  CUstream queue = stream ? stream->queueHandle() : nullptr;
  Dim3 grid = config.grid, block = config.block;
  CUresult result = function.driver().api().cuLaunchCooperativeKernel(
      function.handle(), grid.x, grid.y, grid.z, block.x, block.y, block.z, config.sharedBytes,
      queue, params);
  if (result != CUDA_SUCCESS)
    function.driver().raise(result, "cuLaunchCooperativeKernel",
                            "kernel '" + function.name() + "', grid " + text(grid) + ", block " +
                                text(block) + ", " + std::to_string(config.sharedBytes) +
                                " bytes of dynamic shared memory");
}

namespace detail {

void launchFailed(CUresult result, const Function &function, Dim3 grid, Dim3 block,
                  unsigned sharedBytes, CUstream stream, void **params) {
  const CudaDriverApi &api = function.driver().api();
  // Another library (or the user) may have made a different context current on this thread
  // since kaji last did; the thread-local cache cannot see that, the driver's refusal can.
  bool wrongContext = result == CUDA_ERROR_INVALID_CONTEXT || result == CUDA_ERROR_INVALID_HANDLE;
  if (wrongContext && recoverCurrentContext(function.device())) {
    result = api.cuLaunchKernel(function.handle(), grid.x, grid.y, grid.z, block.x, block.y,
                                block.z, sharedBytes, stream, params, nullptr);
    if (result == CUDA_SUCCESS)
      return;
  }
  function.driver().raise(result, "cuLaunchKernel",
                          "kernel '" + function.name() + "', grid " + text(grid) + ", block " +
                              text(block) + ", " + std::to_string(sharedBytes) +
                              " bytes of dynamic shared memory");
}

} // namespace detail

} // namespace kaji::runtime
