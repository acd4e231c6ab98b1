#include "kaji/codegen/llvm/OptimizationPipeline.h"
#include "ClampThreadLoops.h"
#include "FreezeInvariantDivisions.h"
#include "GPULoopUnrollPolicy.h"
#include "InterchangeThreadLoops.h"
#include "NarrowLoopCounters.h"
#include "ParallelThreadLoops.h"
#include "SinkUniformStores.h"
#include "UnswitchThreadLoops.h"
#include "VersionOnLoopChecks.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/ConstraintElimination.h>
#include <llvm/Transforms/Scalar/InductiveRangeCheckElimination.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

namespace kaji::codegen {

void markLoop(llvm::Instruction &latch, const char *name) {
  llvm::LLVMContext &context = latch.getContext();
  llvm::MDNode *property = llvm::MDNode::get(context, llvm::MDString::get(context, name));
  latch.setMetadata(llvm::LLVMContext::MD_loop,
                    llvm::makePostTransformationMetadata(
                        context, latch.getMetadata(llvm::LLVMContext::MD_loop), {}, {property}));
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel,
                    PipelineExtras extras) {
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PassBuilder passBuilder(&machine);
  passBuilder.registerModuleAnalyses(moduleAnalyses);
  passBuilder.registerCGSCCAnalyses(cgsccAnalyses);
  passBuilder.registerFunctionAnalyses(functionAnalyses);
  passBuilder.registerLoopAnalyses(loopAnalyses);
  passBuilder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
  if (extras == PipelineExtras::SplitRangeCheckedLoops)
    passBuilder.registerVectorizerStartEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
          // Divisions by run-time values (a block's coordinates) are frozen first, so that no
          // pass computes them again in a loop. A loop over threads whose body holds several
          // loops, chosen between by a condition that does not change in it, runs in a copy for
          // each way it goes. A loop inside the loop over
          // a block's threads runs around it, so that the loop over threads is innermost and
          // vectorises; a loop over threads then runs only over the threads that pass its
          // guard, and says that its iterations do not depend on each other through memory.
          // Checks whose outcome over a whole loop is computable before it are decided there
          // (a block's range of indices at once); IRCE splits off the iterations where the
          // remaining checks of an induction variable pass. IRCE wants loops in simplified,
          // LCSSA form. Both leave the checks they decide as constant branches to the report
          // call; the vectoriser only sees a straight-line body once SimplifyCFG has removed
          // them.
          passes.addPass(FreezeInvariantDivisionsPass());
          passes.addPass(llvm::LoopSimplifyPass());
          passes.addPass(llvm::LCSSAPass());
          passes.addPass(UnswitchThreadLoopsPass());
          passes.addPass(llvm::LoopSimplifyPass());
          passes.addPass(llvm::LCSSAPass());
          passes.addPass(InterchangeThreadLoopsPass());
          passes.addPass(ClampThreadLoopsPass());
          passes.addPass(SinkUniformStoresPass());
          passes.addPass(ParallelThreadLoopsPass());
          passes.addPass(llvm::LoopSimplifyPass());
          passes.addPass(llvm::LCSSAPass());
          passes.addPass(VersionOnLoopChecksPass());
          passes.addPass(llvm::LoopSimplifyPass());
          passes.addPass(llvm::LCSSAPass());
          passes.addPass(llvm::IRCEPass());
          passes.addPass(llvm::SimplifyCFGPass());
          passes.addPass(llvm::InstCombinePass());
        });
  if (extras == PipelineExtras::GPULoopUnrolling) {
    passBuilder.registerLateLoopOptimizationsEPCallback(
        [](llvm::LoopPassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(GPULoopUnrollPolicyPass());
        });
    // After the loop passes have simplified each loop's counter and exits, before the runtime
    // unroller copies its body.
    passBuilder.registerVectorizerStartEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(NarrowLoopCountersPass());
        });
    // LLVM runs ConstraintElimination before the loop passes, while a guard such as
    // `0 <= i + k - 8 < n` still tests the induction variable k. Once the loop is unrolled,
    // each copy tests a constant offset from i, and the dominating `i < n` decides half of
    // these tests; a second run after the loop passes removes them (SimplifyCFG and
    // InstCombine follow it in the same pipeline).
    passBuilder.registerScalarOptimizerLateEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
          passes.addPass(llvm::ConstraintEliminationPass());
        });
  }

  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1, llvm::OptimizationLevel::O2,
      llvm::OptimizationLevel::O3};
  llvm::ModulePassManager passes =
      optLevel == 0 ? passBuilder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                    : passBuilder.buildPerModuleDefaultPipeline(levels[optLevel]);
  passes.run(module, moduleAnalyses);
}

} // namespace kaji::codegen
