#pragma once

// A kernel's code linked with the device code its cuda.declare_device functions live in.

#include "kaji/runtime/Module.h"

#include <string>
#include <vector>

namespace kaji::python {

// Numba's CUDA_NVRTC_EXTRA_SEARCH_PATHS: directories NVRTC searches for the #include files of
// the CUDA C++ files kernels link (none unless set).
std::vector<std::string> cudaIncludeDirectories();
void setCudaIncludeDirectories(std::vector<std::string> directories);

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

// What link-time optimisation makes of a kernel compiled with lto=True (its LTO-IR) and its
// link= files: the PTX nvJitLink makes of the LTO-IR among them, optimised together (calls
// into the files' CUDA C++ inlined), with the rewrites ptxas needs made; and the files that
// are not LTO-IR (.ptx, .cubin, .fatbin, .o, .a), which cannot join and are linked after.
struct LtoLinkedPtx {
  std::string ptx;
  std::vector<std::string> notLtoIr;
};

// The kernel `kernel`'s `ltoIr` with `files` (.ltoir, and .cu compiled by NVRTC to LTO-IR for
// `arch`) linked and optimised together into PTX for `arch`; `fastMath` is the kernel's. Errors
// as linkedCubin's; NvJitLinkUnavailable naming the places searched without nvJitLink.
LtoLinkedPtx ltoLinkedPtx(const std::string &ltoIr, const std::string &kernel,
                          const std::string &arch, const std::vector<std::string> &files,
                          bool fastMath);

// ltoLinkedPtx's PTX loaded on the current device (the driver assembles it), linked first by
// nvJitLink with the files that are not LTO-IR where there are any.
runtime::Module loadLtoLinkedModule(const std::string &ltoIr, const std::string &kernel,
                                    const std::string &arch, const std::vector<std::string> &files,
                                    bool fastMath);

} // namespace kaji::python
