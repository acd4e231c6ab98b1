// What every GPU backend takes and gives: a verified kaji module and PTXOptions in, PTX that
// ptxas and the driver's JIT accept out, with each kernel under an entry name the backend
// chooses. The LLVM NVPTX backend (kaji/codegen/nvptx) and the CUDA C++ backend compiled by
// NVRTC (kaji/codegen/nvrtc) implement it; the compile pipeline picks one per request.
#pragma once

#include "kaji/codegen/CodegenTimings.h"
#include "kaji/ir/IR.h"

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
  unsigned optLevel = 3;      // 0..3, LLVM's pipeline level (NVRTC has only its default)
  bool fastMath = false;
  bool lineInfo = false; // `.loc` directives naming each instruction's Python line
  // The lines as DWARF line tables too (`.debug_info`, `.debug_line`), for cuda-gdb: what
  // debug=True asks of the LLVM backend (the nvrtc backend gives the `.loc` directives only).
  bool debugInfo = false;
  // Every array index checked: an index out of range reports IndexError through the
  // module's exception slot (ir/ExceptionTable.h) and ends the thread.
  bool boundsCheck = false;
  KernelLimits limits;
};

class GpuBackend {
public:
  virtual ~GpuBackend() = default;

  // The PTX of a module that ir::verify accepted (no operation is checked again), with the
  // rewrites of kaji/codegen/PtxasMiscompiledOps.h this backend's PTX needs already made.
  // Throws ir::CompileError at the operation (or user line) the backend cannot compile,
  // std::runtime_error when the backend's tools are missing or options.arch is unknown.
  virtual std::string emitPTX(const ir::Module &module, const PTXOptions &options,
                              CodegenTimings *timings = nullptr) const = 0;

  // The PTX entry point of kernel `kernel` in what emitPTX made of its module.
  virtual std::string entryName(const ir::Function &kernel) const = 0;
};

} // namespace kaji::codegen
