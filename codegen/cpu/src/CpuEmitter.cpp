// The public entry points of CpuCodegen.h: lower for the host, add the entry, optimise, JIT.
#include "kaji/codegen/cpu/CpuCodegen.h"

#include "BarrierRegions.h"
#include "CpuEntry.h"
#include "CpuHookCalls.h"
#include "CpuJIT.h"
#include "CpuTarget.h"
#include "GlobalThreadIndex.h"
#include "kaji/codegen/llvm/LLVMLowering.h"
#include "kaji/codegen/llvm/LargeStack.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"
#include "kaji/ir/Reachability.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <optional>
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

// Operations after which a thread waits for others in ways the regions between barriers do
// not express (a warp's lanes, a block-wide tally, the grid; nanosleep: a thread waiting for
// another sleeps; a fragment's load and store, where the warp meets), so their kernels run one
// fiber per thread.
bool needsFibers(const ir::Operation &op) {
  ir::Opcode opcode = op.opcode();
  return opcode == ir::Opcode::BarrierReduce || opcode == ir::Opcode::WarpSync ||
         opcode == ir::Opcode::Warp || opcode == ir::Opcode::GridSync ||
         opcode == ir::Opcode::Nanosleep || opcode == ir::Opcode::FragmentLoad ||
         opcode == ir::Opcode::FragmentStore;
}

bool isBarrier(const ir::Operation &op) { return op.opcode() == ir::Opcode::Barrier; }

struct LoweredCpuModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::string entrySymbol;
  bool usesBarrier = false;
  bool usesGridSync = false;
  uint64_t staticSharedBytes = 0;
  uint64_t threadStorageBytes = 0;
  unsigned parameterCount = 0;
};

LoweredCpuModule lowerForCpu(const ir::Module &module, std::string_view entryName,
                             const CpuOptions &options) {
  const ir::Function &kernel = findKernel(module, entryName);
  CpuJIT &jit = CpuJIT::instance();
  LoweredCpuModule lowered;
  lowered.context = std::make_unique<llvm::LLVMContext>();
  lowered.module = std::make_unique<llvm::Module>("kaji.host", *lowered.context);
  lowered.module->setTargetTriple(jit.triple());
  lowered.module->setDataLayout(jit.dataLayout());
  CpuTarget target;
  lowerModule(module, target, LoweringOptions{options.fastMath, options.boundsCheck},
              *lowered.module);
  target.finishSharedLayout(*lowered.module);
  llvm::Function *kernelFunction = lowered.module->getFunction(kernel.name());
  lowered.parameterCount = unsigned(kernelFunction->arg_size() - 1);
  bool spins = target.addSpinYields(*lowered.module);
  bool fibers = ir::reachesOperation(module, kernel, needsFibers) || spins;
  bool barriers = ir::reachesOperation(module, kernel, isBarrier);
  std::optional<BarrierRegions> regions;
  if (barriers && !fibers && options.threadLoopsAtBarriers)
    regions = splitAtBarriers(*kernelFunction);
  target.lowerBarrierMarkers(*lowered.module);
  if (regions) {
    lowered.entrySymbol = buildRegionLoopEntry(*regions);
    lowered.threadStorageBytes = regions->storageBytesPerThread;
  } else {
    lowered.usesBarrier = barriers || fibers;
    if (lowered.usesBarrier) {
      lowered.entrySymbol = buildOneThreadEntry(*kernelFunction);
    } else {
      readGlobalThreadIndex(*lowered.module);
      lowered.entrySymbol =
          buildThreadLoopEntry(*kernelFunction, threadsMayRunAcrossBlocks(*lowered.module));
    }
  }
  lowered.usesGridSync = ir::usesGridSync(module, kernel);
  lowered.staticSharedBytes = target.staticSharedBytes();
  throwIfInvalid(*lowered.module, "");
  target.linkMathLibrary(*lowered.module, options.fastMath);
  return lowered;
}

// Returns whether a function of the optimised module may call itself.
bool optimizeForCpu(llvm::Module &module, const CpuOptions &options) {
  auto [machine, lock] = CpuJIT::instance().targetMachine(options.optLevel);
  if (options.optLevel > 0) {
    optimizeModule(module, *machine, options.optLevel, PipelineExtras::SplitRangeCheckedLoops);
    throwIfInvalid(module, " after optimisation");
  }
  bool recursive = hasRecursion(module);
  if (options.hooks)
    insertHookCalls(module, *options.hooks);
  return recursive;
}

CpuKernel compileAndLoad(const ir::Module &module, std::string_view entryName,
                         const CpuOptions &options, CodegenTimings *timings) {
  auto last = std::chrono::steady_clock::now();
  CodegenTimings measured;
  LoweredCpuModule lowered = lowerForCpu(module, entryName, options);
  measured.lowerMs = millisecondsSince(last);
  bool recursive = optimizeForCpu(*lowered.module, options);
  measured.optimizeMs = millisecondsSince(last);

  CpuKernel kernel;
  kernel.name = std::string(entryName);
  kernel.usesBarrier = lowered.usesBarrier;
  kernel.usesGridSync = lowered.usesGridSync;
  kernel.recursive = recursive;
  kernel.staticSharedBytes = lowered.staticSharedBytes;
  kernel.threadStorageBytes = lowered.threadStorageBytes;
  kernel.parameterCount = lowered.parameterCount;
  CpuJIT::LoadedCode loaded = CpuJIT::instance().load(
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
                           const CpuOptions &options) {
  LoweredCpuModule lowered = lowerForCpu(module, entryName, options);
  optimizeForCpu(*lowered.module, options);
  std::string text;
  llvm::raw_string_ostream stream(text);
  lowered.module->print(stream, nullptr);
  return text;
}

} // namespace

CpuKernel compileCpuKernel(const ir::Module &module, std::string_view entryName,
                           const CpuOptions &options, CodegenTimings *timings) {
  return onLargeStack([&] { return compileAndLoad(module, entryName, options, timings); });
}

std::string emitCpuLLVMIR(const ir::Module &module, std::string_view entryName,
                          const CpuOptions &options) {
  return onLargeStack([&] { return printOptimized(module, entryName, options); });
}

} // namespace kaji::codegen
