// The public entry points of HostCodegen.h: lower for the host, add the entry, optimise, JIT.
#include "kaji/codegen/host/HostCodegen.h"

#include "HostHookCalls.h"
#include "HostJIT.h"
#include "HostTarget.h"
#include "kaji/codegen/llvm/LLVMLowering.h"
#include "kaji/codegen/llvm/LargeStack.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"
#include "kaji/ir/Reachability.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <stdexcept>
#include <unordered_set>

namespace kaji::codegen {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point &last) {
  auto now = std::chrono::steady_clock::now();
  double elapsed = std::chrono::duration<double, std::milli>(now - last).count();
  last = now;
  return elapsed;
}

const ir::Function &findKernel(const ir::Module &module, std::string_view name) {
  const ir::Function *kernel = module.lookup(name);
  if (!kernel || !kernel->isKernel())
    throw std::invalid_argument("the module has no kernel named '" + std::string(name) + "'");
  return *kernel;
}

// Operations that make threads wait for each other, so their kernels run one fiber per thread.
bool synchronizesThreads(ir::Opcode opcode) {
  return opcode == ir::Opcode::Barrier || opcode == ir::Opcode::BarrierReduce ||
         opcode == ir::Opcode::WarpSync || opcode == ir::Opcode::Warp ||
         opcode == ir::Opcode::GridSync;
}

struct LoweredHostModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::string entrySymbol;
  bool usesBarrier = false;
  bool usesGridSync = false;
  uint64_t staticSharedBytes = 0;
  unsigned parameterCount = 0;
};

LoweredHostModule lowerForHost(const ir::Module &module, std::string_view entryName,
                               const HostOptions &options) {
  const ir::Function &kernel = findKernel(module, entryName);
  HostJIT &jit = HostJIT::instance();
  LoweredHostModule lowered;
  lowered.context = std::make_unique<llvm::LLVMContext>();
  lowered.module = std::make_unique<llvm::Module>("kaji.host", *lowered.context);
  lowered.module->setTargetTriple(jit.triple());
  lowered.module->setDataLayout(jit.dataLayout());
  HostTarget target;
  lowerModule(module, target, LoweringOptions{options.fastMath, options.boundsCheck},
              *lowered.module);
  target.finishSharedLayout(*lowered.module);
  llvm::Function *kernelFunction = lowered.module->getFunction(kernel.name());
  bool spins = target.addSpinYields(*lowered.module);
  lowered.usesBarrier = ir::reachesOperation(module, kernel, synchronizesThreads) || spins;
  lowered.usesGridSync = ir::usesGridSync(module, kernel);
  lowered.entrySymbol = buildHostEntry(*kernelFunction, !lowered.usesBarrier);
  lowered.staticSharedBytes = target.staticSharedBytes();
  lowered.parameterCount = unsigned(kernelFunction->arg_size() - 1);
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*lowered.module, &problemStream))
    throw std::runtime_error("kaji codegen produced invalid LLVM IR (a compiler bug): " + problems);
  target.linkMathLibrary(*lowered.module, options.fastMath);
  return lowered;
}

// Returns whether a function of the optimised module may call itself.
bool optimizeForHost(llvm::Module &module, const HostOptions &options) {
  auto [machine, lock] = HostJIT::instance().targetMachine(options.optLevel);
  if (options.optLevel > 0)
    optimizeModule(module, *machine, options.optLevel, PipelineExtras::SplitRangeCheckedLoops);
  bool recursive = hasRecursion(module);
  if (options.hooks)
    insertHookCalls(module, *options.hooks);
  return recursive;
}

HostKernel compileAndLoad(const ir::Module &module, std::string_view entryName,
                          const HostOptions &options, CodegenTimings *timings) {
  auto last = std::chrono::steady_clock::now();
  CodegenTimings measured;
  LoweredHostModule lowered = lowerForHost(module, entryName, options);
  measured.lowerMs = millisecondsSince(last);
  bool recursive = optimizeForHost(*lowered.module, options);
  measured.optimizeMs = millisecondsSince(last);

  HostKernel kernel;
  kernel.name = std::string(entryName);
  kernel.usesBarrier = lowered.usesBarrier;
  kernel.usesGridSync = lowered.usesGridSync;
  kernel.recursive = recursive;
  kernel.staticSharedBytes = lowered.staticSharedBytes;
  kernel.parameterCount = lowered.parameterCount;
  HostJIT::LoadedCode loaded = HostJIT::instance().load(
      std::move(lowered.module), std::move(lowered.context), lowered.entrySymbol);
  kernel.entry = loaded.entry;
  kernel.code = std::move(loaded.owner);
  kernel.frameBytes = loaded.frameBytes;
  measured.emitMs = millisecondsSince(last);
  if (timings)
    *timings = measured;
  return kernel;
}

std::string printOptimized(const ir::Module &module, std::string_view entryName,
                           const HostOptions &options) {
  LoweredHostModule lowered = lowerForHost(module, entryName, options);
  optimizeForHost(*lowered.module, options);
  std::string text;
  llvm::raw_string_ostream stream(text);
  lowered.module->print(stream, nullptr);
  return text;
}

} // namespace

HostKernel compileHostKernel(const ir::Module &module, std::string_view entryName,
                             const HostOptions &options, CodegenTimings *timings) {
  return onLargeStack([&] { return compileAndLoad(module, entryName, options, timings); });
}

std::string emitHostLLVMIR(const ir::Module &module, std::string_view entryName,
                           const HostOptions &options) {
  return onLargeStack([&] { return printOptimized(module, entryName, options); });
}

} // namespace kaji::codegen
