// The public entry points of Codegen.h: lower, link, optimise and print for NVPTX.
#include "kaji/codegen/nvptx/NVPTXCodegen.h"

#include "ApproximateSqrt.h"
#include "ApproximateTanh.h"
#include "BFloat16WithoutFlushToZero.h"
#include "IssueLoadsEarly.h"
#include "SelectCopysign.h"

#include "NVPTXTarget.h"
#include "SignedBoolToFloat.h"
#include "WarpgroupFences.h"
#include "kaji/codegen/GpuArchitecture.h"
#include "kaji/codegen/PtxFragments.h"
#include "kaji/codegen/PtxasMiscompiledOps.h"
#include "kaji/codegen/llvm/LLVMLowering.h"
#include "kaji/codegen/llvm/LargeStack.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <memory>
#include <stdexcept>

// LLVM 19's NVPTX backend caches each function's nvvm.annotations (kernel, maxntid, ...) by
// the addresses of its module and function (NVPTXUtilities.cpp) and forgets a module only when
// the PTX printer finishes it. NVPTXUtilities.h is not installed, hence this declaration.
namespace llvm {
void clearAnnotationCache(const Module *module);
} // namespace llvm

namespace kaji::codegen {
namespace {

// Forgets the module's annotations when it is freed, whether it was printed as PTX, only
// optimised (emitLLVMIR) or abandoned by an exception: a later module allocated at the same
// addresses would read them as its own, and a kernel once came out as a .func.
struct ForgetAnnotations {
  void operator()(llvm::Module *module) const {
    llvm::clearAnnotationCache(module);
    delete module;
  }
};
using NVPTXModule = std::unique_ptr<llvm::Module, ForgetAnnotations>;

// Marks the kernel's float additions, subtractions, multiplications and divisions (which
// InstCombine makes products: w / 2 is w * 0.5) `contract`, the only operations the backend
// may fuse into fma (FPOpFusion::Standard, NVPTXTargetMachine.cpp): a * b + c fuses as
// numba-cuda and nvcc fuse it by default, and everything else is .rn. Before the math library
// is linked, whose code keeps its own roundings. Not at opt level 0, where every operation
// rounds as written, as NVVM compiles Numba's opt=False.
void allowMultiplyAddContraction(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (instruction.getOpcode() == llvm::Instruction::FAdd ||
          instruction.getOpcode() == llvm::Instruction::FSub ||
          instruction.getOpcode() == llvm::Instruction::FMul ||
          instruction.getOpcode() == llvm::Instruction::FDiv)
        instruction.setHasAllowContract(true);
}

class Stopwatch {
public:
  // Milliseconds since construction or the previous lap.
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double elapsed = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return elapsed;
  }

private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The module lowered for `machine`, with libdevice linked where it is called.
NVPTXModule lowerForNVPTX(const ir::Module &module, const PTXOptions &options,
                          llvm::TargetMachine &machine, llvm::LLVMContext &context) {
  static const NVPTXTarget target;
  NVPTXModule lowered(new llvm::Module("kaji", context));
  lowered->setTargetTriple(kNVPTXTriple);
  lowered->setDataLayout(machine.createDataLayout());
  LoweringOptions lowering;
  lowering.fastMath = options.fastMath;
  lowering.lineInfo = options.lineInfo;
  lowering.debugInfo = options.debugInfo;
  lowering.boundsCheck = options.boundsCheck;
  lowerModule(module, target, lowering, *lowered);
  annotateKernelLimits(*lowered, options.limits);
  throwIfInvalid(*lowered, "");
  if (!options.fastMath && options.optLevel > 0)
    allowMultiplyAddContraction(*lowered);
  target.linkMathLibrary(*lowered, options.fastMath);
  selectApproximateTanh(*lowered, *smNumber(options.arch)); // nvptxTargetMachine accepted it
  return lowered;
}

std::string printOptimized(const ir::Module &module, const PTXOptions &options) {
  SharedTargetMachine shared =
      nvptxTargetMachine(warpgroupArchitecture(module, options.arch), options.optLevel);
  llvm::LLVMContext context;
  NVPTXModule lowered = lowerForNVPTX(module, options, shared.machine, context);
  if (options.optLevel > 0) {
    std::lock_guard<std::mutex> guard(shared.lock);
    optimizeModule(*lowered, shared.machine, options.optLevel, PipelineExtras::GPULoopUnrolling);
  }
  std::string text;
  llvm::raw_string_ostream stream(text);
  lowered->print(stream, nullptr);
  return text;
}

std::string emitPTXText(const ir::Module &module, const PTXOptions &options,
                        CodegenTimings *timings) {
  SharedTargetMachine shared =
      nvptxTargetMachine(warpgroupArchitecture(module, options.arch), options.optLevel);
  Stopwatch stopwatch;
  llvm::LLVMContext context;
  NVPTXModule lowered = lowerForNVPTX(module, options, shared.machine, context);
  CodegenTimings measured;
  measured.lowerMs = stopwatch.lap();

  std::lock_guard<std::mutex> guard(shared.lock);
  if (options.optLevel > 0) {
    optimizeModule(*lowered, shared.machine, options.optLevel, PipelineExtras::GPULoopUnrolling);
    issueLoadsEarly(*lowered);
    elideWarpgroupFences(*lowered);
  }
  rewriteSignedBoolToFloat(*lowered);
  keepBFloat16OffFlushToZero(*lowered);
  selectCopysign(*lowered);
  if (options.fastMath)
    approximateFloat32Sqrt(*lowered);
  throwIfInvalid(*lowered, " after its PTX rewrites");
  measured.optimizeMs = stopwatch.lap();

  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream stream(ptx);
  llvm::legacy::PassManager passes;
  if (shared.machine.addPassesToEmitFile(passes, stream, nullptr,
                                         llvm::CodeGenFileType::AssemblyFile))
    throw std::runtime_error("LLVM's NVPTX backend cannot emit PTX for " + options.arch);
  passes.run(*lowered);
  std::string text = rewriteMiscompiledOpsForPtxas(std::string(ptx.str()));
  measured.emitMs = stopwatch.lap();
  if (timings)
    *timings = measured;
  return text;
}

} // namespace

std::string emitLLVMIR(const ir::Module &module, const PTXOptions &options) {
  return onLargeStack([&] { return printOptimized(module, options); });
}

std::string emitPTX(const ir::Module &module, const PTXOptions &options, CodegenTimings *timings) {
  return onLargeStack([&] { return emitPTXText(module, options, timings); });
}

} // namespace kaji::codegen
