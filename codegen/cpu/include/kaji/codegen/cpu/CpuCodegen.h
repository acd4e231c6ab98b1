// kaji IR → LLVM IR → machine code for the CPU running this process, through LLVM's ORC JIT.
// The CPU backend: the same op lowering as the GPU, a different Target (docs/cpu-backend.md).
//
// A compiled kernel runs one block per call of its entry (barrier-free kernels: the entry
// loops over the block's threads) or one thread per call (kernels that use barriers: the
// executor runs the threads of a block as fibers). runtime::CpuExecutor does either from
// CpuKernel's metadata; the entry's ABI is runtime/CpuKernelABI.h.
#pragma once

#include "kaji/abi/CpuKernelABI.h"
#include "kaji/codegen/CodegenTimings.h"
#include "kaji/ir/IR.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace kaji::codegen {

struct CpuOptions {
  unsigned optLevel = 3; // 0..3, LLVM's pipeline and code generation level
  bool fastMath = false;
  // Checks every array index (after the frontend's negative-index wraparound); an index
  // out of range makes the launch throw runtime::KernelIndexError. Off: indices are used as
  // they are, as on the GPU.
  bool boundsCheck = true;
  // The executor's hooks (CpuKernelABI.h) the code calls: without them the kernel's loops
  // cannot be interrupted and recursion past its stack faults.
  const abi::CpuRuntimeHooks *hooks = nullptr;
  // A kernel whose threads wait for each other only at syncthreads() runs as loops over the
  // block's threads between its barriers where it can (docs/cpu-backend.md); false runs it
  // one fiber per thread, as kernels with warp operations run.
  bool threadLoopsAtBarriers = true;
};

// A kernel loaded into the process. Copies share the machine code, which stays loaded until
// the last copy is destroyed.
struct CpuKernel {
  std::string name;
  abi::CpuKernelEntry entry = nullptr;
  // True if the kernel (or a device function it calls) has a warp operation, a loop in which a
  // thread waits for another (CpuSpinLoops.h) or a barrier it does not run as loops over the
  // threads between barriers: entry then runs one thread and must be called from fibers;
  // otherwise it runs a whole block.
  bool usesBarrier = false;
  // True if it reaches a grid sync: every block must run at once (CpuThreads::Cooperative).
  bool usesGridSync = false;
  // True if a function of the kernel may call itself: its threads then run on stacks of
  // abi::kRecursionStackBytes, whose end the code checks for.
  bool recursive = false;
  // Bytes of the shared arrays the kernel declares; a launch provides at least this much.
  uint64_t staticSharedBytes = 0;
  // Thread storage (CpuLaunchContext::threadStorage) a launch provides per thread of a block:
  // nonzero for a kernel whose barriers cut it into loops over the threads.
  uint64_t threadStorageBytes = 0;
  // Stack that the kernel's own code may use below a call of entry: its frame and those of
  // the device functions it calls (local arrays included), as LLVM laid them out; once per
  // function, so a bound only where the kernel is not `recursive`.
  uint64_t frameBytes = 0;
  // Number of entries `params` must hold: the flattened parameters (see Codegen.h).
  unsigned parameterCount = 0;
  std::shared_ptr<const void> code;
};

// Compiles kernel `entryName` of `module` for this machine. Throws ir::CompileError for an
// operation that cannot be lowered, std::invalid_argument if there is no such kernel,
// std::runtime_error if the JIT fails or optLevel > 3. Thread-safe.
CpuKernel compileCpuKernel(const ir::Module &module, std::string_view entryName,
                           const CpuOptions &options = {}, CodegenTimings *timings = nullptr);

// LLVM IR of the module lowered for this machine with the entry of `entryName`, after
// optimisation when options.optLevel > 0.
std::string emitCpuLLVMIR(const ir::Module &module, std::string_view entryName,
                          const CpuOptions &options = {});

} // namespace kaji::codegen
