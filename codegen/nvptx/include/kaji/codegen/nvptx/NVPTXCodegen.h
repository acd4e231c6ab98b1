// kaji IR → LLVM IR → PTX through LLVM's NVPTX backend. Kernels take their parameters as
// abi/KernelABI.h lays them out, each under its IR name.
#pragma once

#include "kaji/codegen/GpuBackend.h"
#include "kaji/ir/IR.h"

#include <string>

namespace kaji::codegen {

// The NVPTX backend as the compile pipeline calls it: emitPTX below.
const GpuBackend &nvptxBackend();

// LLVM IR text of the module for nvptx64-nvidia-cuda, after optimisation when
// options.optLevel > 0.
std::string emitLLVMIR(const ir::Module &module, const PTXOptions &options);

// PTX text for the module, which ir::verify accepted (the lowerings check no operation
// again). Throws ir::CompileError (with the operation's location) if the module cannot be
// lowered, std::runtime_error naming the problem if
// libdevice cannot be found or the arch is not a known sm_XX.
std::string emitPTX(const ir::Module &module, const PTXOptions &options,
                    CodegenTimings *timings = nullptr);

// Whether `arch` names a GPU newer than every one LLVM's NVPTX backend knows: sm_XX, sm_XXa or
// sm_XXf with XX above all of LLVM's (sm_100 and later for LLVM 19).
bool isNewerThanNVPTXKnows(const std::string &arch);

// Where libdevice.10.bc is looked for: $CUDA_HOME/nvvm/libdevice, $CUDA_PATH/...,
// /usr/local/cuda/nvvm/libdevice. Empty if not found.
std::string findLibdevice();

} // namespace kaji::codegen
