// The calling convention between a kernel compiled for the host (codegen's HostCodegen.h) and
// the CPU executor that runs it (HostExecutor.h). Header-only and free of compiler types: the
// codegen builds its LLVM view of HostLaunchContext from this definition, so the two cannot
// drift apart.
#pragma once

#include <cstdint>

namespace kaji::runtime {

// What a host kernel reads about the thread it runs as. The kernel only reads it.
struct HostLaunchContext {
  // Of this thread for a kernel that uses barriers (run once per thread); ignored by a
  // barrier-free kernel, whose entry loops over the block's threads itself.
  uint32_t threadIdx[3];
  uint32_t blockIdx[3];
  uint32_t blockDim[3];
  uint32_t gridDim[3];
  // The block's shared memory: the kernel's static shared arrays at the offsets the codegen
  // chose, HostKernel::staticSharedBytes in all, then the launch's dynamic bytes.
  void *sharedMemory;
  // Passed back to the two callbacks; owned by the executor.
  void *executor;
  // Returns once every thread of the block has called it (kernels that use barriers only).
  void (*barrier)(void *executor);
  // An array index out of range: `site` is "file:line:col: in kernel 'name'", `index` the
  // value the kernel computed. Returns; the kernel then continues on scratch memory.
  void (*indexError)(void *executor, const char *site, int64_t axis, int64_t index, int64_t extent);
};

// A compiled host kernel. `params` is cuLaunchKernel's kernelParams: one pointer per
// flattened parameter (an array is its data pointer, then ndim × int64 shape, then ndim ×
// int64 strides in bytes; a scalar is its value, bool as one byte).
using HostKernelEntry = void (*)(void *const *params, const HostLaunchContext *context);

} // namespace kaji::runtime
