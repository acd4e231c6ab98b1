// A loop over threads runs only over the threads that pass its guard.
//
// Kernels start with a guard: `if i < n:` for a thread per element, `if 0 < row < h - 1 and
// 0 < col < w - 1:` for a stencil's interior. In the loop over a block's threads (marked
// kThreadLoop) a thread that fails it goes straight to the next one, so the vectoriser
// predicates the whole body on it — masked loads and stores, the index compared lane by lane
// in 64-bit vectors — and the checks of the accesses it guards cannot be decided for the
// block at once (the guard's false side is where the index would leave the array).
//
// The threads that pass a test of an index affine in the thread (`{a,+,1}` or `{a,+,-1}`
// without wrap, against a bound that does not change in the loop) form one interval of the
// loop's counter, computed before the loop; so do the threads that pass several such tests
// joined by `and` along the path from the loop's header to its body, each on a block that has
// no effect when the thread skips. The loop then runs over that interval (none of it when
// empty), the tests it decides are true inside, and the skipped threads, which would have
// done nothing, are not visited.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

class ClampThreadLoopsPass : public llvm::PassInfoMixin<ClampThreadLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
