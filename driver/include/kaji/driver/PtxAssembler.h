// PTX → cubin with the CUDA toolkit's ptxas, for `kaji-compile --emit cubin` and for what a
// kernel uses of the GPU (registers, shared, local and constant memory) without one. The GPU
// path loads PTX (the driver assembles it for the device at hand); a cubin is for
// ahead-of-time use and inspection (cuobjdump, nvdisasm).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kaji::driver {

// ptxas from $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin or $PATH; nothing when there
// is none.
std::optional<std::filesystem::path> findPtxas();

// The cubin (ELF bytes) ptxas makes of `ptx` for `arch` ("sm_90") at -O`optLevel`. Throws
// std::runtime_error naming what failed: no ptxas, or ptxas's own error log.
std::string assemblePTX(std::string_view ptx, const std::string &arch, unsigned optLevel);

// What one kernel entry uses per thread and per block, as ptxas reports it (`--verbose`).
struct ResourceUsage {
  int64_t registersPerThread = 0;
  int64_t sharedBytesPerBlock = 0; // static shared memory
  int64_t localBytesPerThread = 0; // the stack frame
  int64_t constBytes = 0;          // user constant banks (every bank but the parameters')
  // The largest block the kernel can be launched with: its .maxntid, the architecture's 1024,
  // or fewer when its registers do not fit 1024 threads in one SM's 64 Ki registers.
  int64_t maxThreadsPerBlock = 0;
};

// The resources of `entry` in `ptx` assembled for `arch`. Throws std::runtime_error as
// assemblePTX does, or when ptxas reports nothing for `entry`.
ResourceUsage ptxasResourceUsage(std::string_view ptx, const std::string &entry,
                                 const std::string &arch, unsigned optLevel);

} // namespace kaji::driver
