// A cubin's SASS (the GPU's own instructions) through the CUDA toolkit's nvdisasm, or
// cuobjdump when nvdisasm is missing: Numba's inspect_sass(), with no GPU needed.
#pragma once

#include <string>
#include <string_view>

namespace kaji::driver {

// The SASS of every function of `cubin` (ELF bytes from assemblePTX). Throws
// std::runtime_error naming what failed: neither program found, or its error log.
std::string disassembleSass(std::string_view cubin);

} // namespace kaji::driver
