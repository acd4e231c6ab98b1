// A loop inside the loop over a block's threads runs around it instead.
//
// On the CPU target a kernel's own loop (a grid-stride loop, a loop over a row) runs inside
// the loop over the block's threads: each thread's iterations one after the other, an
// accumulation a chain of dependent additions, nothing for the vectoriser to widen across
// threads. Between barriers the threads of a block run in no defined order, so running
// iteration k of every thread before iteration k + 1 of any is an order a GPU could run too.
//
// A loop over threads (marked kThreadLoop) whose body holds one innermost loop with a
// single exit, at its latch, and a trip count computable before it becomes three loops over
// the threads:
//   - before: the body up to the inner loop, for each thread, keeping the thread's trip count,
//     the way it went on (into the loop or past it) and the values the rest uses in
//     per-thread arrays;
//   - during: for k below the least trip count, for each thread, iteration k of its loop;
//     then for k below the greatest, the same for each thread whose trip count exceeds k;
//   - after: the rest of the body, for each thread.
// The inner loop's values carried from one iteration to the next live in the per-thread
// arrays; its affine induction variables are recomputed from k, so an index such as
// `start + threadIdx.x + k * stride` stays affine in the thread index and the loop over
// threads, now innermost, vectorises. Trip counts that cannot grow with the thread index (a
// grid-stride loop's) are not kept: the first and last thread's are the greatest and least,
// and a part that then has nothing to keep or do is left out. The thread's own memory (the
// entry's allocas the body uses) gets a copy per thread.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

class InterchangeThreadLoopsPass : public llvm::PassInfoMixin<InterchangeThreadLoopsPass> {
public:
  // The per-thread arrays are the entry's stack: a loop over more threads than a block can
  // hold (its trip count's range, from the block extents' range metadata) is left alone.
  static constexpr uint64_t kMaxThreads = 1024;
  // Larger inner loops are copied twice over; they are left as they are.
  static constexpr unsigned kMaxInnerInstructions = 256;
  static constexpr unsigned kMaxThreadLoopInstructions = 1024;
  // Each thread's own memory (its local arrays) gets a copy per thread, on the entry's stack:
  // no more than this in all.
  static constexpr uint64_t kMaxPrivateBytes = 64 * 1024;
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
