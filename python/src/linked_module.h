#pragma once

// A kernel's PTX linked with the device code its cuda.declare_device functions live in.

#include "kaji/runtime/Module.h"

#include <string>
#include <vector>

namespace kaji::python {

// `ptx` (kernel `kernel`'s) linked with `files` (.cu compiled by NVRTC for `arch`, .ptx,
// .cubin, .fatbin, .o, .a) by the driver's linker and loaded. Errors name the file: one that
// cannot be read or compiled, and the linker's log for a symbol no file defines.
runtime::Module loadLinkedModule(const std::string &ptx, const std::string &kernel,
                                 const std::string &arch, const std::vector<std::string> &files);

} // namespace kaji::python
