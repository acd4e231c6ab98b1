#include "CpuObjectCompiler.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace kaji::codegen {
namespace {

// Blocks that may pass values on: all but those ending in `unreachable`.
size_t countedBlocks(const llvm::Function &function) {
  return size_t(llvm::count_if(function, [](const llvm::BasicBlock &block) {
    return !llvm::isa<llvm::UnreachableInst>(block.getTerminator());
  }));
}

} // namespace

bool compilesOptimised(const llvm::Module &module) {
  return llvm::all_of(module, [](const llvm::Function &function) {
    return countedBlocks(function) <= kLargestOptimisedFunctionBlocks;
  });
}

CpuObjectCompiler::CpuObjectCompiler(llvm::orc::JITTargetMachineBuilder machineBuilder)
    : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(machineBuilder.getOptions())),
      machineBuilder_(std::move(machineBuilder)) {}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
CpuObjectCompiler::operator()(llvm::Module &module) {
  llvm::orc::JITTargetMachineBuilder builder = machineBuilder_;
  if (!compilesOptimised(module))
    builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = builder.createTargetMachine();
  if (!machine)
    return machine.takeError();
  // SimpleCompiler names the object after the module, which CpuJIT::load relies on.
  llvm::orc::SimpleCompiler compile(**machine);
  return compile(module);
}

} // namespace kaji::codegen
