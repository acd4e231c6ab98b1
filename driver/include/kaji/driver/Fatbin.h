// A fatbin of cubins and PTX, packed by the CUDA toolkit's fatbinary: what the driver loads on
// any of the cubins' architectures, or compiles the PTX for on a newer one.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kaji::driver {

// The fatbin of `cubins` ({"sm_80", cubin}, ...) and `ptx`, compiled for `ptxArch`. Throws
// std::invalid_argument for an architecture that is not sm_<digits>[a|f], and
// std::runtime_error naming fatbinary when the toolkit has none or it fails.
std::string packFatbin(const std::vector<std::pair<std::string, std::string>> &cubins,
                       const std::string &ptxArch, const std::string &ptx);

// "90a" of "sm_90a"; std::invalid_argument (naming `arch`) for anything else.
std::string architectureNumber(const std::string &arch);

} // namespace kaji::driver
