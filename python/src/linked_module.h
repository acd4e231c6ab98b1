#pragma once

// A kernel's PTX linked with the device code its cuda.declare_device functions live in.

#include "kaji/runtime/Module.h"

#include <string>
#include <vector>

namespace kaji::python {

// `ptx` (kernel `kernel`'s) linked with `files` (.cu compiled by NVRTC for `arch`, .ptx,
// .cubin, .fatbin, .o, .a, .ltoir) into a cubin for `arch`. Without LTO-IR the driver's linker
// links (which needs the driver); with a .ltoir file nvJitLink does, on the CPU, optimising the
// LTO-IR together (-lto), and .cu files are compiled to LTO-IR to join in. The kernel goes in as
// PTX with both backends. Errors name the file: one that cannot be read or compiled, and the
// linker's log for a symbol no file defines.
std::string linkedCubin(const std::string &ptx, const std::string &kernel, const std::string &arch,
                        const std::vector<std::string> &files);

// linkedCubin's cubin, loaded on the current device.
runtime::Module loadLinkedModule(const std::string &ptx, const std::string &kernel,
                                 const std::string &arch, const std::vector<std::string> &files);

} // namespace kaji::python
