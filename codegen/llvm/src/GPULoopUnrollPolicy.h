// How far kaji unrolls innermost loops on the GPU, where LLVM's budgets are sized for a CPU.
//
// LLVM's full unroller weighs a loop against 300 cost units at -O3, so a
// `for k in range(17)` whose body holds a guarded multiply-add stays a loop (unrolled by 2),
// where nvcc unrolls it completely and keeps the accumulator, the indices and the loads in
// registers. NVPTX gives the partial and runtime unroller a quarter of that (75 units), so a
// loop body of some thirty instructions with a run-time trip count (n-body's force between two
// bodies) is unrolled by two, where nvcc unrolls it by four: the loop's own work (index,
// compare, branch, address step) is then shared by four bodies, and the loads of four
// iterations issue together. On the GPU a branch per iteration and the loop's induction
// arithmetic cost more than the code size, so kaji chooses these counts itself and leaves the
// unrolling to LLVM's unroller, which keeps a remainder loop where the trip count is not a
// multiple of the count: the result is the same for every trip count.
#pragma once

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

namespace kaji::codegen {

// On an innermost loop without unroll metadata of its own:
// - a constant trip count of at most kMaxFullTripCount, with trip count × body size at most
//   kMaxFullyUnrolledInstructions: `llvm.loop.unroll.full` (LoopFullUnrollPass, later in the
//   same loop pipeline, unrolls it);
// - a trip count that scalar evolution computes, though not as a constant, one exit taken from
//   the latch, a body of kMinRuntimeBodyInstructions to kMaxRuntimeBodyInstructions
//   instructions and no call but to non-convergent intrinsics: `llvm.loop.unroll.count 4`
//   (LoopUnrollPass unrolls it at run time). Smaller bodies LLVM already unrolls by four or more,
//   unless the trip count takes a division by a run-time value (a grid-stride loop's,
//   (n - start) / gridsize): LLVM finds that too costly to compute before the loop, and keeps
//   such a loop whole. kaji unrolls one of any size up to the maximum by four when it loads
//   memory and writes nothing its loads may read, as nvcc does: four loads per thread in
//   flight are worth one division per thread (a 32-bit one where the operands fit, which NVPTX
//   checks at run time). Where a write may alias a load (a*x+y into a third array of unknown
//   provenance), the next copy's loads could not move above it: the copies would cost
//   registers, and so occupancy, and win nothing (40 registers against 18 for nvcc's loop,
//   which it keeps whole). Such a loop's
//   first iteration is peeled off first: a grid launched with a thread per element (each
//   thread's loop runs once) then runs the body and one compare, without the division and the
//   remainder loop before its loads (with them, an a*x+y loop so launched took 110.8 µs on an
//   H200 where the same body without the loop took 72.0: bench/results/vectorize_h200_*).
//   LLVM does not split a loop holding a barrier or a shuffle into an unrolled loop and a
//   remainder (and would warn that the count was not applied).
class GPULoopUnrollPolicyPass : public llvm::PassInfoMixin<GPULoopUnrollPolicyPass> {
public:
  static constexpr unsigned kMaxFullTripCount = 64;
  static constexpr unsigned kMaxFullyUnrolledInstructions = 1024;
  static constexpr unsigned kRuntimeUnrollCount = 4;
  static constexpr unsigned kMinRuntimeBodyInstructions = 24;
  static constexpr unsigned kMaxRuntimeBodyInstructions = 128;

  llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &analyses,
                              llvm::LoopStandardAnalysisResults &results,
                              llvm::LPMUpdater &updater);
};

} // namespace kaji::codegen
