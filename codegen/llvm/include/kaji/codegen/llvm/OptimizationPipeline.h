// LLVM's standard optimisation pipeline, run with the target's own passes registered.
#pragma once

namespace llvm {
class Instruction;
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

// Loop metadata (an MDString in the loop's llvm.loop node) for SplitRangeCheckedLoops: the
// checks are not decided before this loop, only before the loops inside it. A loop around loops
// that decide their checks on their own (a CPU entry's loop over a chunk of blocks) would
// otherwise be copied whole, every copy of what it holds with it.
inline constexpr const char *kDecideChecksInside = "kaji.loop.decide_checks_inside";

// Loop metadata for SplitRangeCheckedLoops: the loop runs a block's threads (the innermost of a
// CPU entry's loops over threadIdx), which may run in any order, so a loop inside it may run
// around it (InterchangeThreadLoops.h) and its iterations do not depend on each other through
// memory (ParallelThreadLoops.h).
inline constexpr const char *kThreadLoop = "kaji.loop.threads";

// Instruction metadata for SplitRangeCheckedLoops: the store writes a value that every thread of
// the block holds alike to the block's slot for it, which no thread reads while the threads of
// a loop over them run (SinkUniformStores.h).
inline constexpr const char *kUniformStore = "kaji.uniform_store";

// Adds the property `name` (kDecideChecksInside, kThreadLoop) to the loop whose latch branch is
// `latch`.
void markLoop(llvm::Instruction &latch, const char *name);

// Runs LLVM's per-module default pipeline at optLevel (0..3) on `module`. The
// TargetMachine contributes its passes (NVVMReflect, address-space inference, ...) and
// its cost model.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel,
                    PipelineExtras extras = PipelineExtras::None);

} // namespace kaji::codegen
