// The host JIT's compiler from optimised LLVM IR to an object file, choosing the code
// generator's optimisation level by the size of the code.
#pragma once

#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>

namespace kaji::codegen {

// A function with more basic blocks than this is compiled by LLVM's unoptimising code
// generator (fast instruction selection and register allocation). The optimising one grows
// faster than linearly there: greedy register allocation and coalescing over values live
// across many blocks (bounds-checked `if`s: 250 of them, 756 blocks, took 1.4 s in llc -O3,
// 500 took 7.2 s; -O0 took 0.2 s for 2 000). docs/cpu-backend.md has the measurements. Blocks
// that end in `unreachable` (a call of a runtime hook that does not return, one per loop for
// Ctrl-C) are not counted: nothing is live out of them.
inline constexpr unsigned kLargestOptimisedFunctionBlocks = 500;

// Whether every function of `module` is small enough for the optimising code generator.
bool compilesOptimised(const llvm::Module &module);

class CpuObjectCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  explicit CpuObjectCompiler(llvm::orc::JITTargetMachineBuilder machineBuilder);
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module &module) override;

private:
  llvm::orc::JITTargetMachineBuilder machineBuilder_;
};

} // namespace kaji::codegen
