#include "CpuObjectCompiler.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>

namespace kaji::codegen {
namespace {

size_t largestFunctionBlocks(const llvm::Module &module) {
  size_t largest = 0;
  for (const llvm::Function &function : module)
    largest = std::max(largest, function.size());
  return largest;
}

} // namespace

CpuObjectCompiler::CpuObjectCompiler(llvm::orc::JITTargetMachineBuilder machineBuilder)
    : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(machineBuilder.getOptions())),
      machineBuilder_(std::move(machineBuilder)) {}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
CpuObjectCompiler::operator()(llvm::Module &module) {
  llvm::orc::JITTargetMachineBuilder builder = machineBuilder_;
  if (largestFunctionBlocks(module) > kLargestOptimisedFunctionBlocks)
    builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = builder.createTargetMachine();
  if (!machine)
    return machine.takeError();
  // SimpleCompiler names the object after the module, which CpuJIT::load relies on.
  llvm::orc::SimpleCompiler compile(**machine);
  return compile(module);
}

} // namespace kaji::codegen
