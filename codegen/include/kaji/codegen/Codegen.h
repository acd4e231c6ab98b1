// kaji IR → LLVM IR → PTX through LLVM's NVPTX backend.
//
// Kernel parameter ABI (what the runtime packs for cuLaunchKernel): each kernel
// parameter is flattened, in order, into
//   scalar of type T      → one parameter of T (bool as one byte, 0 or 1)
//   complex c64 / c128    → two parameters of its part type f32 / f64: real, imaginary
//   array of ndim n       → data pointer (8 bytes), then n × i64 shape, then n × i64
//                           strides in bytes
// An array's elements take at most kMaxArrayBytes bytes (its extents multiplied by the element
// size, zero extents left out), so each extent lies in [0, kMaxArrayBytes]: kernels are
// compiled on that fact and callers must refuse larger arrays.
// Kernels keep their IR function name as the PTX entry name.
#pragma once

#include "kaji/ir/IR.h"

#include <cstdint>
#include <string>

namespace kaji::codegen {

// 2**62 bytes: far beyond any memory, and small enough that an index below an extent plus any
// grid-sized step still fits an int64.
inline constexpr int64_t kMaxArrayBytes = int64_t(1) << 62;

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
