// The process-wide ORC JIT that loads host kernels, and the TargetMachine that optimises
// for this CPU.
#pragma once

#include "kaji/abi/CpuKernelABI.h"

#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class DataLayout;
class LLVMContext;
class Module;
class TargetMachine;
class Triple;
} // namespace llvm

namespace kaji::codegen {

class CpuJIT {
public:
  // Created on first use; never destroyed, so kernels released during static destruction
  // still find it.
  static CpuJIT &instance();

  const llvm::DataLayout &dataLayout() const;
  const std::string &triple() const;

  // The TargetMachine for this CPU (its name and features) at optLevel; whoever runs passes
  // with it holds the returned lock.
  std::pair<llvm::TargetMachine *, std::unique_lock<std::mutex>> targetMachine(unsigned optLevel);

  struct LoadedCode {
    abi::CpuKernelEntry entry = nullptr;
    // Keeps the machine code loaded while it lives.
    std::shared_ptr<const void> owner;
    // The stack frames of every function in the module added up, as LLVM's code generator
    // laid them out: no call chain needs more, since kernels cannot recurse.
    uint64_t frameBytes = 0;
  };

  // Compiles `module` to machine code in a JITDylib of its own and returns the address of
  // `symbol` in it. Thread-safe.
  LoadedCode load(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
                  const std::string &symbol);

  CpuJIT(const CpuJIT &) = delete;
  CpuJIT &operator=(const CpuJIT &) = delete;

private:
  CpuJIT();
  ~CpuJIT();
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace kaji::codegen
