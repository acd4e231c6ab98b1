// Full unrolling of small loops with a constant trip count on the GPU.
//
// LLVM's unroller weighs a loop against a CPU-sized budget (300 cost units at -O3), so a
// `for k in range(17)` whose body holds a guarded multiply-add stays a loop (unrolled by 2),
// where nvcc unrolls it completely and keeps the accumulator, the indices and the loads in
// registers. On the GPU a branch per iteration and the loop's induction arithmetic cost
// more than the code size, so kaji marks such loops for full unrolling itself, with a
// budget of its own.
#pragma once

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

namespace kaji::codegen {

// Marks an innermost loop `llvm.loop.unroll.full` when scalar evolution knows its trip count
// and trip count × body size stays within kMaxUnrolledInstructions; LoopFullUnrollPass,
// which runs after it in the same loop pipeline, then unrolls it. Loops that carry unroll
// metadata already are left as they are.
class SmallLoopFullUnrollPass : public llvm::PassInfoMixin<SmallLoopFullUnrollPass> {
public:
  static constexpr unsigned kMaxTripCount = 64;
  static constexpr unsigned kMaxUnrolledInstructions = 1024;

  llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &analyses,
                              llvm::LoopStandardAnalysisResults &results,
                              llvm::LPMUpdater &updater);
};

} // namespace kaji::codegen
