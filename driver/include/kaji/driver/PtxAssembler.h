// PTX → cubin with the CUDA toolkit's ptxas, for `kaji-compile --emit cubin`. The GPU path
// loads PTX (the driver assembles it for the device at hand); a cubin is for ahead-of-time
// use and inspection (cuobjdump, nvdisasm).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kaji::driver {

// ptxas from $CUDA_HOME/bin, /usr/local/cuda/bin or $PATH; nothing when there is none.
std::optional<std::filesystem::path> findPtxas();

// The cubin (ELF bytes) ptxas makes of `ptx` for `arch` ("sm_90") at -O`optLevel`. Throws
// std::runtime_error naming what failed: no ptxas, or ptxas's own error log.
std::string assemblePTX(std::string_view ptx, const std::string &arch, unsigned optLevel);

} // namespace kaji::driver
