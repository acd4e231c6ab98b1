// kaji IR → LLVM IR → PTX through LLVM's NVPTX backend. Kernels take their parameters as
// abi/KernelABI.h lays them out.
#pragma once

#include "kaji/ir/IR.h"

#include <cstdint>
#include <string>

namespace kaji::codegen {

// What each kernel of a module promises ptxas, 0 for no promise: at most
// `maxThreadsPerBlock` threads per block (`.maxntid`), room for `minBlocksPerMultiprocessor`
// resident blocks per SM (`.minnctapersm`), clusters of at most `maxBlocksPerCluster` blocks
// (`.maxclusterrank`, sm_90 and newer) and at most `maxRegisters` registers per thread
// (`.maxnreg`). Numba's launch_bounds= and max_registers=.
struct KernelLimits {
  unsigned maxThreadsPerBlock = 0;
  unsigned minBlocksPerMultiprocessor = 0;
  unsigned maxBlocksPerCluster = 0;
  unsigned maxRegisters = 0;
};

struct PTXOptions {
  std::string arch = "sm_90"; // sm_XX
  unsigned optLevel = 3;      // 0..3, LLVM's pipeline level
  bool fastMath = false;
  bool lineInfo = false; // `.loc` directives naming each instruction's Python line
  // Every array index checked: an index out of range reports IndexError through the
  // module's exception slot (ir/ExceptionTable.h) and ends the thread.
  bool boundsCheck = false;
  KernelLimits limits;
};

// Wall time of the codegen phases of one emitPTX call, in milliseconds.
struct CodegenTimings {
  double lowerMs = 0;    // kaji IR → LLVM IR, libdevice linked
  double optimizeMs = 0; // LLVM's O-level pipeline
  double emitMs = 0;     // NVPTX instruction selection and PTX printing
};

// LLVM IR text of the module for nvptx64-nvidia-cuda, after optimisation when
// options.optLevel > 0.
std::string emitLLVMIR(const ir::Module &module, const PTXOptions &options);

// PTX text for the module, which ir::verify accepted (the lowerings check no operation
// again). Throws ir::CompileError (with the operation's location) if the module cannot be
// lowered, std::runtime_error naming the problem if
// libdevice cannot be found or the arch is not a known sm_XX.
std::string emitPTX(const ir::Module &module, const PTXOptions &options,
                    CodegenTimings *timings = nullptr);

// Where libdevice.10.bc is looked for: $CUDA_HOME/nvvm/libdevice, $CUDA_PATH/...,
// /usr/local/cuda/nvvm/libdevice. Empty if not found.
std::string findLibdevice();

} // namespace kaji::codegen
