// Kernel launches: a launch shape checked against the device, then cuLaunchKernel.
#pragma once

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Dim3.h"
#include "kaji/runtime/Function.h"
#include "kaji/runtime/Stream.h"

#include <array>
#include <cstdint>
#include <string>

namespace kaji::runtime {

// A launch shape as a caller wrote it (Python ints, command-line numbers): signed and wide, so
// that 0, -1 and 2^40 reach validateLaunch and get named instead of wrapping.
using Extent3 = std::array<std::int64_t, 3>;

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned sharedBytes = 0;
};

// Checks a launch shape against the limits and converts it. Throws InvalidLaunch (Error.h) naming
// the violated limit: "block size 2048 exceeds the device's maximum of 1024 threads per block".
LaunchConfig validateLaunch(const DeviceLimits &limits, const Extent3 &grid, const Extent3 &block,
                            std::int64_t sharedBytes);
LaunchConfig validateLaunch(const Device &device, const Extent3 &grid, const Extent3 &block,
                            std::int64_t sharedBytes);
// Also holds the block to the kernel's own thread limit (lower when it uses many registers or
// has launch bounds).
LaunchConfig validateLaunch(const Function &function, const Extent3 &grid, const Extent3 &block,
                            std::int64_t sharedBytes);
// Holds the block to `maxThreads` (a kernel's launch bounds), which the message names as
// `threadLimit` ("the maximum kernel 'k''s launch_bounds set").
LaunchConfig validateLaunch(const DeviceLimits &limits, std::int64_t maxThreads,
                            const std::string &threadLimit, const Extent3 &grid,
                            const Extent3 &block, std::int64_t sharedBytes);

namespace detail {
// The launch's failure path, kept out of line so that launch() stays a few instructions: it
// retries once if another library had switched this thread's context, else throws CudaError.
void launchFailed(CUresult result, const Function &function, Dim3 grid, Dim3 block,
                  unsigned sharedBytes, CUstream stream, void **params);
} // namespace detail

// Queues `function` on `stream` (nullptr: the default stream of the function's device).
// `params` holds one pointer per kernel parameter, to its value. Nothing is allocated or
// checked here beyond the driver's own result: validate untrusted shapes with validateLaunch.
inline void launch(const Function &function, Dim3 grid, Dim3 block, unsigned sharedBytes,
                   const Stream *stream, void **params) {
  makeCurrentCached(function.device());
  CUstream queue = stream ? stream->queueHandle() : nullptr;
  CUresult result =
      function.driver().api().cuLaunchKernel(function.handle(), grid.x, grid.y, grid.z, block.x,
                                             block.y, block.z, sharedBytes, queue, params, nullptr);
  if (result != CUDA_SUCCESS) [[unlikely]]
    detail::launchFailed(result, function, grid, block, sharedBytes, queue, params);
}

// As launch(), with cuLaunchCooperativeKernel: every block is resident at once, as a kernel
// with a grid sync needs. A grid over Function::maxCooperativeGridBlocks fails with the
// driver's CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
void launchCooperative(const Function &function, const LaunchConfig &config, const Stream *stream,
                       void **params);

inline void launch(const Function &function, const LaunchConfig &config, const Stream *stream,
                   void **params) {
  launch(function, config.grid, config.block, config.sharedBytes, stream, params);
}

} // namespace kaji::runtime
