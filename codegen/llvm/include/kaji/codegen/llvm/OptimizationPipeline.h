// LLVM's standard optimisation pipeline, run with the target's own passes registered.
#pragma once

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace kaji::codegen {

// Passes added to LLVM's standard pipeline for one target.
enum class PipelineExtras {
  None,
  // Before the vectoriser, IRCE splits each loop with range checks on its induction variable
  // into a check-free main loop and pre/post loops that keep them, so a bounds-checked loop
  // (the host's loop over a block's threads) vectorises.
  SplitRangeCheckedLoops,
  // Innermost loops are unrolled as nvcc does (GPULoopUnrollPolicy.h): small ones with a
  // constant trip count completely, mid-sized ones with a run-time trip count by four; the
  // conditions that the unrolled copies make redundant are removed.
  GPULoopUnrolling,
};

// Runs LLVM's per-module default pipeline at optLevel (0..3) on `module`. The
// TargetMachine contributes its passes (NVVMReflect, address-space inference, ...) and
// its cost model.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel,
                    PipelineExtras extras = PipelineExtras::None);

} // namespace kaji::codegen
