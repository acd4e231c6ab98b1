// The driver's linker (cuLinkCreate/cuLinkAddData/cuLinkComplete): a kernel's PTX and the
// device code it calls (cuda.declare_device's files: PTX, cubins, fatbinaries, objects,
// libraries) become one cubin for the selected device.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <string>
#include <string_view>
#include <vector>

namespace kaji::runtime {

struct LinkInput {
  CUjitInputType type;
  std::string name; // the file it came from, named in errors
  std::string data;
};

// The input type of a file a linker takes, by its suffix: .ptx, .cubin, .fatbin, .o, .a, and
// .ltoir (CU_JIT_INPUT_NVVM, which only nvJitLink takes: NvJitLink.h). Anything else throws
// std::invalid_argument naming the file (CUDA C++ is compiled first).
CUjitInputType linkInputType(std::string_view fileName);

// Throws std::invalid_argument for no inputs or an empty one, naming it.
void checkLinkInputs(const std::vector<LinkInput> &inputs);

// Links `inputs` into a cubin for the selected device. Throws CudaError whose detail is the
// linker's error log (which names a missing symbol and the input that wants it), or
// std::invalid_argument for no inputs, an empty one or LTO-IR; DriverUnavailable without a
// driver.
std::string linkCubin(const std::vector<LinkInput> &inputs);

} // namespace kaji::runtime
