// What the compiler takes from the CUDA toolkit, for the driver's callers: libdevice, and NVRTC
// for users' CUDA C++ files (cuda.declare_device's link=). The driver's face on codegen's
// toolkit functions, so that the Python binding reaches the compiler through the driver only.
#pragma once

#include "kaji/codegen/Codegen.h"
#include "kaji/codegen/cuda/CudaCodegen.h"

namespace kaji::driver {

using codegen::findLibdevice;
using codegen::cuda::addNvrtcSearchDirectory;
using codegen::cuda::compileCudaSource;
using codegen::cuda::DeviceCodeFormat;
using codegen::cuda::nvrtcInfo;
using codegen::cuda::NvrtcInfo;

} // namespace kaji::driver
