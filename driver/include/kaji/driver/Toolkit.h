// What the compiler takes from the CUDA toolkit, for the driver's callers: libdevice, NVRTC
// for users' CUDA C++ files (cuda.declare_device's link=), and the rewrites NVVM's PTX needs
// before ptxas (for the PTX nvJitLink makes of LTO-IR). The driver's face on codegen's
// toolkit functions, so that the Python binding reaches the compiler through the driver only.
#pragma once

#include "kaji/codegen/nvptx/NVPTXCodegen.h"
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"

namespace kaji::driver {

using codegen::findLibdevice;
using codegen::nvrtc::addNvrtcSearchDirectory;
using codegen::nvrtc::compileCudaSource;
using codegen::nvrtc::DeviceCodeFormat;
using codegen::nvrtc::nvrtcInfo;
using codegen::nvrtc::NvrtcInfo;
using codegen::nvrtc::rewriteNvvmPtxForPtxas;

} // namespace kaji::driver
